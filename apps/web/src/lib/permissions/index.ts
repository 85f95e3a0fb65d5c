export { AccessProvider, useCurrentAccess, type CurrentAccess } from './access-context';
export { canAccess, type Access, type GrantedPermission } from './can';
export { useCan, useCanFunction, useIsViewer } from './use-can';
export {
  isFeatureEnabled,
  propertiesQueryOptions,
  PROPERTIES_QUERY_KEY,
  useFeatureFlags,
  type FeatureFlags,
  type Property,
} from './feature-flags';
