import clsx from 'clsx';
import { useState } from 'react';
import { formatDuration } from '../../lib/format/duration';
import { DataTable, type DataTableColumn } from '../data-table/data-table';
import { useDataTableState } from '../data-table/use-data-table-state';
import { FormattedDate } from '../date/age';
import { Modal } from '../modal/modal';
import { JobStatusBadge } from './job-status-badge';
import { useResourceJobs, type ResourceJob } from './resource-jobs';

/** Settings §9: the Job History tab of a resource editor shows 150 rows by default. */
const TABLE_DEFAULTS = {
  defaultPageSize: 150,
  defaultSortBy: 'time_start',
  defaultSortOrder: 'desc',
} as const;

const DETAIL_TABS = [
  { key: 'errors', label: 'Errors' },
  { key: 'scrape_summary', label: 'Scrape Summary' },
  { key: 'summary', label: 'Reconcile Summary' },
] as const;

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function detailTabs(job: ResourceJob | undefined) {
  const details = job?.details ?? {};
  return DETAIL_TABS.filter((tab) => !isEmptyValue((details as Record<string, unknown>)[tab.key]));
}

function errorLines(errors: unknown): string[] {
  if (typeof errors === 'string') return [errors];
  if (Array.isArray(errors))
    return errors.map((error) => (typeof error === 'string' ? error : JSON.stringify(error)));
  if (errors && typeof errors === 'object')
    return Object.entries(errors).map(
      ([key, error]) => `${key}: ${typeof error === 'string' ? error : JSON.stringify(error)}`,
    );
  return [];
}

/** 'Details for job …' with Errors, Scrape Summary and Reconcile Summary tabs, only those with data. */
function JobDetailsModal({ job, onClose }: { job: ResourceJob | undefined; onClose(): void }) {
  const tabs = detailTabs(job);
  const [chosen, setChosen] = useState<string>();
  const active = tabs.find((tab) => tab.key === chosen) ?? tabs[0];
  const value = active && job?.details ? (job.details as Record<string, unknown>)[active.key] : undefined;
  return (
    <Modal
      open={Boolean(job) && tabs.length > 0}
      onClose={onClose}
      title={`Details for job ${job?.name ?? ''}`}
    >
      <div role="tablist" aria-label="Job details" className="mb-3 flex gap-1 border-b border-gray-200">
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            aria-selected={tab === active}
            onClick={() => setChosen(tab.key)}
            className={clsx(
              '-mb-px border-b-2 px-3 py-1.5 text-sm',
              tab === active ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-600',
            )}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {active?.key === 'errors' ? (
        <ul role="tabpanel" aria-label="Errors" className="flex flex-col gap-1 text-sm text-red-700">
          {errorLines(value).map((line, index) => (
            <li key={index} className="font-mono break-all">
              {line}
            </li>
          ))}
        </ul>
      ) : (
        <pre
          role="tabpanel"
          aria-label={active?.label}
          className="overflow-x-auto rounded bg-gray-50 p-2 text-xs"
        >
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </Modal>
  );
}

const COLUMNS: DataTableColumn<ResourceJob>[] = [
  {
    id: 'time_start',
    header: 'Timestamp',
    accessorKey: 'time_start',
    cell: ({ row }) => <FormattedDate value={row.original.time_start} />,
  },
  { id: 'name', header: 'Job Name', accessorKey: 'name' },
  {
    id: 'status',
    header: 'Status',
    accessorKey: 'status',
    cell: ({ row }) => <JobStatusBadge status={row.original.status} />,
  },
  {
    id: 'duration_millis',
    header: 'Duration',
    accessorKey: 'duration_millis',
    cell: ({ row }) => formatDuration(row.original.duration_millis),
  },
  {
    id: 'statistics',
    header: 'Statistics',
    enableSorting: false,
    cell: ({ row }) => (
      <span className="flex gap-2 text-xs">
        {row.original.success_count > 0 && (
          <span className="text-green-700">Success {row.original.success_count}</span>
        )}
        {row.original.error_count > 0 && (
          <span className="text-red-700">Error {row.original.error_count}</span>
        )}
      </span>
    ),
  },
];

export interface JobHistoryTableProps {
  /** The resource whose jobs are listed (job_histories.resource_id). */
  resourceId: string;
  /** Identifies the table for its remembered page size, e.g. 'catalog-scraper-jobs'. */
  tableId: string;
}

/**
 * The Job History tab of a resource editor (settings §2.1, §2.4): the runs of one resource with
 * the resource columns hidden, paged and sorted by the server (page size from the URL, 150 by
 * default); a row with details opens 'Details for job …'. A failed fetch without data shows the error.
 */
export function JobHistoryTable({ resourceId, tableId }: JobHistoryTableProps) {
  const table = { ...TABLE_DEFAULTS, tableId };
  const state = useDataTableState(table);
  const query = useResourceJobs(resourceId, {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  const [selected, setSelected] = useState<ResourceJob>();
  if (query.isError && !query.data)
    return (
      <p role="alert" className="text-sm text-red-700">
        {query.error.message}
      </p>
    );
  return (
    <>
      <DataTable
        {...table}
        label="Job History"
        columns={COLUMNS}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        onRowClick={(row) => setSelected(detailTabs(row).length > 0 ? row : undefined)}
      />
      <JobDetailsModal key={selected?.id} job={selected} onClose={() => setSelected(undefined)} />
    </>
  );
}
