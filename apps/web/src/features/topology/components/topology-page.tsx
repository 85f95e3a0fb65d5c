import { TOPOLOGY_SORT_FIELDS, type TopologyQuery } from '@opsdeck/contracts';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { Select } from '../../../components/select/select';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { TriStateFilterList } from '../../../components/tri-state-filter/tri-state-filter-list';
import { usePreferences, useShowHiddenComponents } from '../../../lib/preferences';
import { enumParam, stringParam, useFilterParam, useSearchParam } from '../../../lib/url-state';
import { toTriStateQuery } from '../../../lib/url-state/filter-encoding';
import { useTopology } from '../api/topology';
import { TopologyCard } from './topology-card';

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

  return (
    <div className="flex flex-col gap-4 p-4 lg:flex-row">
      <aside aria-label="Filters" className="flex w-full shrink-0 flex-col gap-3 lg:w-56">
        <FormField label="Type">
          <Select
            compact
            value={filters.type}
            onChange={(event) => filters.setType(event.target.value || undefined)}
          >
            <option value="">All</option>
            {(data?.types ?? []).map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Team">
          <Select
            compact
            value={filters.owner}
            onChange={(event) => filters.setOwner(event.target.value || undefined)}
          >
            <option value="">All</option>
            {(data?.teams ?? []).map((team) => (
              <option key={team} value={team}>
                {team}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Health">
          <Select
            compact
            value={filters.status}
            onChange={(event) => filters.setStatus(event.target.value || undefined)}
          >
            <option value="">All</option>
            {HEALTHS.map((health) => (
              <option key={health} value={health}>
                {health}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Sort by">
          <Select
            compact
            value={filters.sortBy}
            onChange={(event) =>
              filters.setSortBy(event.target.value as (typeof TOPOLOGY_SORT_FIELDS)[number])
            }
          >
            {TOPOLOGY_SORT_FIELDS.map((field) => (
              <option key={field} value={field}>
                {SORT_LABELS[field]}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Order">
          <Select
            compact
            value={filters.sortOrder}
            onChange={(event) => filters.setSortOrder(event.target.value as 'asc' | 'desc')}
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </Select>
        </FormField>
        {labelOptions.length > 0 && (
          <TriStateFilterList filter="labels" title="Labels" options={labelOptions} />
        )}
      </aside>
      <section aria-label="Components" className="flex min-w-0 flex-1 flex-wrap content-start gap-3">
        {topology.isPending ? (
          <PageSkeleton label="Loading components" />
        ) : topology.isError ? (
          <EmptyState message={topology.error.message} />
        ) : data && data.components.length === 0 ? (
          <EmptyState message={NO_COMPONENTS_MESSAGE} />
        ) : (
          data?.components.map((component) => (
            <TopologyCard key={component.id} component={component} width={cardWidth} />
          ))
        )}
      </section>
    </div>
  );
}
