import { CatalogChangesPage } from '../../features/catalog';
import { RouteGuard } from '../guards/route-guard';

export function CatalogChangesRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <CatalogChangesPage />
    </RouteGuard>
  );
}
