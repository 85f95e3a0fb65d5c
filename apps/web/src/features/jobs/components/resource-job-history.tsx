import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { ErrorDetails } from '../../../components/error-boundary/error-screens';
import { useJobHistory, type JobHistoryItem } from '../api/job-history';
import { availableDetailTabs } from '../lib/job-details';
import { JobDetailsModal } from './job-details-modal';
import { useJobColumns } from './jobs-history-page';

/** The resource columns a resource's own tab hides (settings §2.1). */
const RESOURCE_COLUMNS = new Set(['agent', 'resource_name']);

/**
 * The Job History tab of a resource editor (settings §2.4, §2.1): the Jobs History table for one
 * resource, resource columns hidden, page size from the URL's pageSize (150 by default, core §9),
 * the same details modal; an error screen when the fetch fails and there is no data.
 */
export function ResourceJobHistory({ resourceId, tableId }: { resourceId: string; tableId: string }) {
  const table = useMemo(
    () => ({ tableId, defaultPageSize: 150, defaultSortBy: 'time_start', defaultSortOrder: 'desc' as const }),
    [tableId],
  );
  const state = useDataTableState(table);
  const query = useJobHistory(
    { resourceId },
    {
      pageIndex: state.pageIndex,
      pageSize: state.pageSize,
      sortBy: state.sortBy,
      sortOrder: state.sortOrder,
    },
  );
  const all = useJobColumns();
  const columns = useMemo(() => all.filter((column) => !RESOURCE_COLUMNS.has(column.id ?? '')), [all]);
  const [selected, setSelected] = useState<JobHistoryItem>();

  if (query.isError && !query.data) return <ErrorDetails error={query.error} hideStack />;
  return (
    <>
      <DataTable
        {...table}
        label="Job History"
        columns={columns}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        onRowClick={(row) => {
          if (availableDetailTabs(row.details).length > 0) setSelected(row);
        }}
      />
      <JobDetailsModal job={selected} onClose={() => setSelected(undefined)} />
    </>
  );
}
