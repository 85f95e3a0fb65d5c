import { CanariesPage, CanaryEditorPage } from '../../features/canaries';
import { RouteGuard } from '../guards/route-guard';

/** Settings §6: the health-check editor reads canaries and is off while health is disabled. */
export function SettingsCanariesRoute() {
  return (
    <RouteGuard resource="canaries" action="read" feature="settings.health">
      <CanariesPage />
    </RouteGuard>
  );
}

export function SettingsCanaryRoute() {
  return (
    <RouteGuard resource="canaries" action="read" feature="settings.health">
      <CanaryEditorPage />
    </RouteGuard>
  );
}
