import { LogBackendEditorPage, LogBackendsPage } from '../../features/log-backends';
import { RouteGuard } from '../guards/route-guard';

/** Settings §2.5: /settings/log-backends; settings.logging_backends (off while logs is disabled). */
export function SettingsLogBackendsRoute() {
  return (
    <RouteGuard resource="logging_backends" action="read" feature="settings.logging_backends">
      <LogBackendsPage />
    </RouteGuard>
  );
}

export function SettingsLogBackendRoute() {
  return (
    <RouteGuard resource="logging_backends" action="read" feature="settings.logging_backends">
      <LogBackendEditorPage />
    </RouteGuard>
  );
}
