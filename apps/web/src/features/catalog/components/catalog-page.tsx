import { CatalogSummary } from './catalog-summary';
import { ConfigList } from './config-list';
import { useCatalogFilterActions, useCatalogFilters } from './use-catalog-filters';

/** /catalog (core §2): the summary by type, or the items of the type chosen in the URL. */
export function CatalogPage() {
  const filters = useCatalogFilters();
  const { selectType } = useCatalogFilterActions();
  const { type } = filters;
  if (type) return <ConfigList filters={{ ...filters, type }} />;
  return <CatalogSummary showDeleted={filters.showDeleted} onSelectType={selectType} />;
}
