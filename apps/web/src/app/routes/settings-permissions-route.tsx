import { PermissionsPage, PermissionsReference } from '../../features/permissions';
import { RouteGuard } from '../guards/route-guard';

/** Spec core §6: the permissions page needs read on permissions (the rbac resource). */
export function SettingsPermissionsRoute() {
  return (
    <RouteGuard resource="rbac" action="read" feature="settings.permissions">
      <PermissionsPage />
    </RouteGuard>
  );
}

/** /reference/permissions: the permission modal's help link (settings §2.2), for the same readers. */
export function PermissionsReferenceRoute() {
  return (
    <RouteGuard resource="rbac" action="read" feature="settings.permissions">
      <PermissionsReference />
    </RouteGuard>
  );
}
