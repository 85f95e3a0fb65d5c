import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { FormattedDate } from '../../../components/date/age';
import { formatDuration } from '../../../lib/format/duration';
import { useJobHistory, type JobHistoryItem } from '../api/job-history';
import { availableDetailTabs } from '../../../components/job-history-table/job-details';
import { agentLink, resourceLink } from '../lib/resource-links';
import { CopyIdButton } from './copy-id-button';
import { JobDetailsModal } from '../../../components/job-history-table/job-details-modal';
import { JobHistoryFilters } from './job-history-filters';
import { JobStatusBadge } from '../../../components/job-history-table/job-status-badge';
import {
  FILTER_PARAMS,
  useJobHistoryFilterState,
  useJobHistoryQueryFilters,
} from './use-job-history-filters';

/** Remembered page size key and defaults (spec core §9: 150 rows for job history). */
const TABLE = {
  tableId: 'jobs-history',
  defaultPageSize: 150,
  defaultSortBy: 'time_start',
  defaultSortOrder: 'desc',
} as const;

const stopRowClick = (event: { stopPropagation(): void }) => event.stopPropagation();

/**
 * The Jobs History columns (settings §2.1). Without `filterByName` the job name is plain text
 * (a resource's Job History tab has no filters).
 */
function useJobColumns(filterByName?: (name: string) => void): DataTableColumn<JobHistoryItem>[] {
  return useMemo(
    () => [
      {
        id: 'time_start',
        header: 'Timestamp',
        accessorKey: 'time_start',
        cell: ({ row }) => <FormattedDate value={row.original.time_start} />,
      },
      {
        id: 'name',
        header: 'Job Name',
        accessorKey: 'name',
        cell: ({ row }) =>
          !filterByName ? (
            row.original.name
          ) : (
            <button
              type="button"
              title={`Filter by ${row.original.name}`}
              onClick={(event) => {
                stopRowClick(event);
                filterByName(row.original.name);
              }}
              className="text-left text-gray-900 hover:text-blue-700 hover:underline"
            >
              {row.original.name}
            </button>
          ),
      },
      {
        id: 'agent',
        header: 'Agent',
        enableSorting: false,
        cell: ({ row }) => {
          const id = row.original.agent?.id ?? row.original.agent_id;
          if (!id) return null;
          return (
            <Link to={agentLink(id)} onClick={stopRowClick} className="text-blue-700 hover:underline">
              {row.original.agent?.name ?? id}
            </Link>
          );
        },
      },
      {
        id: 'resource_name',
        header: 'Resource',
        accessorKey: 'resource_name',
        cell: ({ row }) => {
          const { resource_id: id, resource_type: type, resource_name: name } = row.original;
          if (!id) return null;
          const href = resourceLink(type, id);
          const label = name ?? id;
          return (
            <span className="flex items-center gap-1">
              {href ? (
                <Link to={href} onClick={stopRowClick} className="text-blue-700 hover:underline">
                  {label}
                </Link>
              ) : (
                <span>{label}</span>
              )}
              <CopyIdButton id={id} />
            </span>
          );
        },
      },
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
              <span title="Success count" className="rounded bg-green-50 px-1.5 py-0.5 text-green-800">
                {row.original.success_count} success
              </span>
            )}
            {row.original.error_count > 0 && (
              <span title="Error count" className="rounded bg-red-50 px-1.5 py-0.5 text-red-800">
                {row.original.error_count} errors
              </span>
            )}
          </span>
        ),
      },
    ],
    [filterByName],
  );
}

/** Jobs History (settings §2.1): server-side paged and sorted job runs with filters and details. */
export function JobsHistoryPage() {
  const state = useDataTableState(TABLE);
  const filters = useJobHistoryQueryFilters();
  const { setFilter } = useJobHistoryFilterState();
  const query = useJobHistory(filters, {
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
    sortBy: state.sortBy,
    sortOrder: state.sortOrder,
  });
  const [selected, setSelected] = useState<JobHistoryItem>();
  const filterByName = useCallback((name: string) => setFilter(FILTER_PARAMS.name, name), [setFilter]);
  const columns = useJobColumns(filterByName);

  if (query.isError && !query.data) throw query.error;

  return (
    <div className="flex flex-col gap-4">
      <JobHistoryFilters />
      <DataTable
        {...TABLE}
        label="Jobs History"
        columns={columns}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        onRowClick={(row) => {
          // Settings §2.1: without any details there is nothing to open.
          if (availableDetailTabs(row.details).length > 0) setSelected(row);
        }}
      />
      <JobDetailsModal job={selected} onClose={() => setSelected(undefined)} />
    </div>
  );
}
