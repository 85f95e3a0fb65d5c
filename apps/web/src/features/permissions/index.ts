export { PermissionsPage, type PermissionsPageProps } from './components/permissions-page';
export { PermissionsReference } from './components/permissions-reference';
export type { PermissionResourcePreset } from './lib/permission-form';
