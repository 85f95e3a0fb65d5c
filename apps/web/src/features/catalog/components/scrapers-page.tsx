import type { DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { JobStatusBadge } from '../../../components/job-history-table/job-status-badge';
import { ResourceListPage, resourceNameColumn } from '../../../components/resource-editor/resource-list-page';
import { useCan } from '../../../lib/permissions';
import { useScraperList, type ScraperRow } from '../api/scrapers';

/** Spec keys that configure the scrape as a whole rather than name a source. */
const SETTINGS_KEYS = new Set(['schedule', 'retention', 'full', 'logLevel', 'properties']);

/** The source types a spec names (file, http, kubernetes, …). */
export function scraperTypes(spec: Record<string, unknown> | null): string[] {
  return Object.keys(spec ?? {}).filter((key) => !SETTINGS_KEYS.has(key));
}

const TABLE = { tableId: 'catalog-scrapers', defaultSortOrder: 'asc' } as const;

/** The scraper list; each scraper's editor is below it. */
export const SCRAPERS_PATH = '/catalog/scrapers';
export const scraperPath = (id: string) => `${SCRAPERS_PATH}/${encodeURIComponent(id)}`;

const COLUMNS: DataTableColumn<ScraperRow>[] = [
  resourceNameColumn<ScraperRow>(scraperPath),
  { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
  {
    id: 'types',
    header: 'Types',
    enableSorting: false,
    cell: ({ row }) => scraperTypes(row.original.spec).join(', '),
  },
  { id: 'schedule', header: 'Schedule', accessorKey: 'schedule' },
  { id: 'source', header: 'Source', accessorKey: 'source' },
  {
    id: 'job_time_start',
    header: 'Last Run',
    accessorKey: 'job_time_start',
    cell: ({ row }) =>
      row.original.job_status ? (
        <span className="flex items-center gap-2">
          <JobStatusBadge status={row.original.job_status} />
          <Age value={row.original.job_time_start} />
        </span>
      ) : (
        <span className="text-gray-500">Never run</span>
      ),
  },
  {
    id: 'statistics',
    header: 'Statistics',
    enableSorting: false,
    cell: ({ row }) => (
      <span className="flex gap-2 text-xs">
        {Boolean(row.original.job_success_count) && (
          <span className="text-green-700">Success {row.original.job_success_count}</span>
        )}
        {Boolean(row.original.job_error_count) && (
          <span className="text-red-700">Error {row.original.job_error_count}</span>
        )}
      </span>
    ),
  },
  {
    id: 'updated_at',
    header: 'Updated',
    accessorKey: 'updated_at',
    cell: ({ row }) => <Age value={row.original.updated_at} />,
  },
];

/** /catalog/scrapers (core §2): the scrapers with the outcome of their last run. */
export function ScrapersPage() {
  const state = useDataTableState(TABLE);
  const canWrite = useCan('config_scrapers', 'write');
  const query = useScraperList({
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  return (
    <ResourceListPage
      title="Scrapers"
      table={TABLE}
      columns={COLUMNS}
      query={query}
      editorPath={scraperPath}
      add={canWrite ? { label: 'Add Scraper', to: `${SCRAPERS_PATH}/new` } : undefined}
    />
  );
}
