import { CatalogPage } from '../../features/catalog';
import { RouteGuard } from '../guards/route-guard';

export function CatalogRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <CatalogPage />
    </RouteGuard>
  );
}
