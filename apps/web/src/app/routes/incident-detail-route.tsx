import { IncidentDetailPage } from '../../features/incidents';
import { RouteGuard } from '../guards/route-guard';

export function IncidentDetailRoute() {
  return (
    <RouteGuard resource="incident" action="read" feature="incidents">
      <IncidentDetailPage />
    </RouteGuard>
  );
}
