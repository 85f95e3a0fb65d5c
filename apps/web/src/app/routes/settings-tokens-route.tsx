import { TokensPage } from '../../features/tokens';
import { RouteGuard } from '../guards/route-guard';

export function SettingsTokensRoute() {
  return (
    <RouteGuard resource="auth" action="read">
      <TokensPage />
    </RouteGuard>
  );
}
