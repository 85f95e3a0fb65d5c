import { ScraperEditorPage, ScrapersPage } from '../../features/catalog';
import { RouteGuard } from '../guards/route-guard';

export function CatalogScrapersRoute() {
  return (
    <RouteGuard resource="config_scrapers" action="read" feature="config">
      <ScrapersPage />
    </RouteGuard>
  );
}

export function CatalogScraperRoute() {
  return (
    <RouteGuard resource="config_scrapers" action="read" feature="config">
      <ScraperEditorPage />
    </RouteGuard>
  );
}
