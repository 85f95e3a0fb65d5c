import { CatalogSummary } from './catalog-summary';
import { ConfigList } from './config-list';
import { useCatalogFilterActions, useCatalogFilters } from './use-catalog-filters';

/**
 * /catalog (core §2): the summary by type (or by a tag or label key), or the items of the type
 * chosen in the URL, or the items of every type with the tag or label chosen from a group.
 */
export function CatalogPage() {
  const filters = useCatalogFilters();
  const { selectType, selectGroup } = useCatalogFilterActions();
  const byTagOrLabel = Object.keys(filters.tags).length > 0 || Object.keys(filters.labels).length > 0;
  if (filters.type || byTagOrLabel) return <ConfigList filters={filters} />;
  return (
    <CatalogSummary showDeleted={filters.showDeleted} onSelectType={selectType} onSelectGroup={selectGroup} />
  );
}
