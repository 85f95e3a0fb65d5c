import { ConnectionsPage } from '../../features/connections';
import { RouteGuard } from '../guards/route-guard';

export function SettingsConnectionsRoute() {
  return (
    <RouteGuard resource="connections" action="read">
      <ConnectionsPage />
    </RouteGuard>
  );
}
