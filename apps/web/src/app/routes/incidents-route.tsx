import { IncidentsPage } from '../../features/incidents';
import { RouteGuard } from '../guards/route-guard';

export function IncidentsRoute() {
  return (
    <RouteGuard resource="incident" action="read" feature="incidents">
      <IncidentsPage />
    </RouteGuard>
  );
}
