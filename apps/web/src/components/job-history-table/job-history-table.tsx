import { useState } from 'react';
import { formatDuration } from '../../lib/format/duration';
import { DataTable, type DataTableColumn } from '../data-table/data-table';
import { useDataTableState } from '../data-table/use-data-table-state';
import { FormattedDate } from '../date/age';
import { availableDetailTabs } from './job-details';
import { JobDetailsModal } from './job-details-modal';
import { JobStatusBadge } from './job-status-badge';
import { useResourceJobs, type ResourceJob } from './resource-jobs';

/** Settings §9: the Job History tab of a resource editor shows 150 rows by default. */
const TABLE_DEFAULTS = {
  defaultPageSize: 150,
  defaultSortBy: 'time_start',
  defaultSortOrder: 'desc',
} as const;

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
        onRowClick={(row) => setSelected(availableDetailTabs(row.details).length > 0 ? row : undefined)}
      />
      <JobDetailsModal job={selected} onClose={() => setSelected(undefined)} />
    </>
  );
}
