import { CatalogInsightsPage } from '../../features/catalog';
import { RouteGuard } from '../guards/route-guard';

export function CatalogInsightsRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <CatalogInsightsPage />
    </RouteGuard>
  );
}
