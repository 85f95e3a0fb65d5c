import { TOPOLOGY_SORT_FIELDS, type TopologyQuery } from '@opsdeck/contracts';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { optionsOf, SelectMenu, type SelectMenuOption } from '../../../components/select-menu/select-menu';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { TriStateFilterList } from '../../../components/tri-state-filter/tri-state-filter-list';
import { usePreferences, useShowHiddenComponents } from '../../../lib/preferences';
import { enumParam, stringParam, useFilterParam, useSearchParam } from '../../../lib/url-state';
import { toTriStateQuery } from '../../../lib/url-state/filter-encoding';
import { useTopology } from '../api/topology';
import { CardGrid } from './card-grid';

export const NO_COMPONENTS_MESSAGE = 'No components found';
const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
const SORT_LABELS: Record<(typeof TOPOLOGY_SORT_FIELDS)[number], string> = {
  name: 'Name',
  type: 'Type',
  health: 'Health',
  status: 'Status',
  created_at: 'Created',
  updated_at: 'Updated',
};

const SORT_ORDERS: SelectMenuOption<'asc' | 'desc'>[] = [
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
];

/** Every filter of the dashboard, from the URL. */
function useTopologyFilters() {
  const [type, setType] = useSearchParam('type', stringParam, '');
  const [owner, setOwner] = useSearchParam('owner', stringParam, '');
  const [status, setStatus] = useSearchParam('status', stringParam, '');
  const [sortBy, setSortBy] = useSearchParam('sortBy', enumParam(TOPOLOGY_SORT_FIELDS), 'name');
  const [sortOrder, setSortOrder] = useSearchParam('sortOrder', enumParam(['asc', 'desc'] as const), 'asc');
  const labels = useFilterParam('labels');
  const [showHidden] = useShowHiddenComponents();
  const query: TopologyQuery = {
    type: type || undefined,
    owner: owner || undefined,
    status: status || undefined,
    labels: toTriStateQuery(labels.states),
    sortBy,
    sortOrder,
    hidden: showHidden ? undefined : 'false',
  };
  return {
    query,
    type,
    setType,
    owner,
    setOwner,
    status,
    setStatus,
    sortBy,
    setSortBy,
    sortOrder,
    setSortOrder,
  };
}

/** /topology (core §2): cards of the root components with filters; every choice lives in the URL. */
export function TopologyPage() {
  const filters = useTopologyFilters();
  const { cardWidth } = usePreferences();
  const topology = useTopology(filters.query);
  const data = topology.data;
  const labelOptions = Object.entries(data?.tags ?? {}).flatMap(([key, values]) =>
    values.map((value) => ({ value: `${key}=${value}` })),
  );

  const allOption = { value: '', label: 'All' };
  return (
    <div className="flex flex-col gap-4 p-4 lg:flex-row">
      <aside aria-label="Filters" className="flex w-full shrink-0 flex-col gap-3 lg:w-56">
        <FormField label="Type">
          <SelectMenu
            compact
            value={filters.type}
            onChange={(value) => filters.setType(value || undefined)}
            options={[allOption, ...optionsOf(data?.types ?? [])]}
          />
        </FormField>
        <FormField label="Team">
          <SelectMenu
            compact
            value={filters.owner}
            onChange={(value) => filters.setOwner(value || undefined)}
            options={[allOption, ...optionsOf(data?.teams ?? [])]}
          />
        </FormField>
        <FormField label="Health">
          <SelectMenu
            compact
            value={filters.status}
            onChange={(value) => filters.setStatus(value || undefined)}
            options={[allOption, ...optionsOf(HEALTHS)]}
          />
        </FormField>
        <FormField label="Sort by">
          <SelectMenu<(typeof TOPOLOGY_SORT_FIELDS)[number]>
            compact
            value={filters.sortBy}
            onChange={filters.setSortBy}
            options={optionsOf(TOPOLOGY_SORT_FIELDS, (field) => SORT_LABELS[field])}
          />
        </FormField>
        <FormField label="Order">
          <SelectMenu<'asc' | 'desc'>
            compact
            value={filters.sortOrder}
            onChange={filters.setSortOrder}
            options={SORT_ORDERS}
          />
        </FormField>
        {labelOptions.length > 0 && (
          <TriStateFilterList filter="labels" title="Labels" options={labelOptions} />
        )}
      </aside>
      {data && data.components.length > 0 ? (
        <CardGrid components={data.components} cardWidth={cardWidth} label="Components" />
      ) : (
        <section aria-label="Components" className="flex min-w-0 flex-1 flex-col">
          {topology.isPending ? (
            <PageSkeleton label="Loading components" />
          ) : topology.isError ? (
            <EmptyState message={topology.error.message} />
          ) : (
            <EmptyState message={NO_COMPONENTS_MESSAGE} />
          )}
        </section>
      )}
    </div>
  );
}
