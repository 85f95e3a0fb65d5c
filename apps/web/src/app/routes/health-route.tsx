import { HealthPage } from '../../features/health';
import { RouteGuard } from '../guards/route-guard';

export function HealthRoute() {
  return (
    <RouteGuard resource="canaries" action="read" feature="health">
      <HealthPage />
    </RouteGuard>
  );
}
