import { ConfigDetailPage } from '../../features/catalog';
import { RouteGuard } from '../guards/route-guard';

export function CatalogDetailRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <ConfigDetailPage />
    </RouteGuard>
  );
}

export {
  ConfigChangesPage,
  ConfigChecksPage,
  ConfigInsightsPage,
  ConfigRelationshipsPage,
  ConfigSpecPage,
} from '../../features/catalog';
