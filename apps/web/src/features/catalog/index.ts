export { CatalogPage } from './components/catalog-page';
export { CatalogChangesPage } from './components/catalog-changes-page';
export { CatalogInsightsPage } from './components/catalog-insights-page';
export { ConfigDetailPage } from './components/config-detail-page';
export {
  ConfigChangesPage,
  ConfigChecksPage,
  ConfigInsightsPage,
  ConfigRelationshipsPage,
  ConfigSpecPage,
} from './components/config-sub-pages';
export { ScraperEditorPage } from './components/scraper-editor-page';
export { ScrapersPage } from './components/scrapers-page';
export {
  EvidenceActionProvider,
  type ConfigEvidenceTarget,
  type RenderEvidenceAction,
} from './components/evidence-action';
