import { FeatureFlagsPage } from '../../features/feature-flags';
import { RouteGuard } from '../guards/route-guard';

export function SettingsFeatureFlagsRoute() {
  return (
    <RouteGuard resource="feature_flags" action="read" feature="settings.feature_flags">
      <FeatureFlagsPage />
    </RouteGuard>
  );
}
