export { CatalogPage } from './components/catalog-page';
export { ConfigDetailPage } from './components/config-detail-page';
