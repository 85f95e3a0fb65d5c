import { AgentsPage } from '../../features/agents';
import { RouteGuard } from '../guards/route-guard';

export function SettingsAgentsRoute() {
  return (
    <RouteGuard resource="agents" action="read" feature="agents">
      <AgentsPage />
    </RouteGuard>
  );
}
