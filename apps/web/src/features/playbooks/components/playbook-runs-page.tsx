import { PLAYBOOK_RUN_STATUSES, type PlaybookRunListItem, type PlaybookRunStatus } from '@opsdeck/contracts';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { Input } from '../../../components/input/input';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { resolveTimeRange } from '../../../components/time-range-picker/time-range';
import { UrlTimeRangePicker } from '../../../components/time-range-picker/time-range-picker';
import { usePreferences } from '../../../lib/preferences/use-preferences';
import { stringParam, useSearchParam } from '../../../lib/url-state/search-param';
import { useTimeRangeParams } from '../../../lib/url-state/time-range-params';
import { usePlaybookRows, usePlaybookRuns } from '../api/playbooks';
import { durationText, RunStatusBadge } from './run-status-badge';

const TABLE = { tableId: 'playbook-runs', defaultSortBy: 'created_at', defaultSortOrder: 'desc' } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function useColumns(): DataTableColumn<PlaybookRunListItem>[] {
  return useMemo(
    () => [
      {
        id: 'playbook',
        header: 'Playbook',
        enableSorting: false,
        cell: ({ row }) => (
          <span className="flex items-center gap-2">
            {row.original.playbook.icon && <ResourceIcon icon={row.original.playbook.icon} />}
            {row.original.playbook.title || row.original.playbook.name}
          </span>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        enableSorting: false,
        cell: ({ row }) => <RunStatusBadge status={row.original.status} />,
      },
      {
        id: 'resource',
        header: 'Resource',
        enableSorting: false,
        cell: ({ row }) => row.original.resource_name ?? '',
      },
      {
        id: 'created_at',
        header: 'Started',
        enableSorting: false,
        cell: ({ row }) => <Age value={row.original.start_time ?? row.original.created_at} />,
      },
      {
        id: 'duration',
        header: 'Duration',
        enableSorting: false,
        cell: ({ row }) => durationText(row.original.start_time, row.original.end_time),
      },
    ],
    [],
  );
}

/** `/playbooks/runs`: every run, newest first, paged and filtered on the server (`?playbook=`). */
export function PlaybookRunsPage() {
  const navigate = useNavigate();
  const state = useDataTableState(TABLE);
  const [playbook, setPlaybook] = useSearchParam('playbook', stringParam, '');
  const [status, setStatus] = useSearchParam('status', stringParam, '');
  const [resource, setResource] = useSearchParam('resource', stringParam, '');
  const { timeRange } = useTimeRangeParams();
  const { timezone } = usePreferences();
  const resolved = useMemo(
    () => (timeRange ? resolveTimeRange(timeRange, { timezone }) : undefined),
    [timeRange, timezone],
  );
  const playbooks = usePlaybookRows();
  const resourceId = resource.trim().replace(/^(check|config|component):/, '');
  const resourceFilter = UUID.test(resourceId) ? { [resourceKeyFor(resource.trim())]: resourceId } : {};
  const query = usePlaybookRuns({
    playbook: playbook || undefined,
    status: (status || undefined) as PlaybookRunStatus | undefined,
    ...resourceFilter,
    from: resolved?.from?.toISOString(),
    to: resolved?.to?.toISOString(),
    pageIndex: state.pageIndex,
    pageSize: state.pageSize,
  });
  const columns = useColumns();
  return (
    <div className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-end gap-2">
        <SelectMenu
          aria-label="Playbook"
          compact
          value={playbook}
          onChange={setPlaybook}
          options={[
            { value: '', label: 'All playbooks' },
            ...(playbooks.data ?? []).map((row) => ({ value: row.id, label: row.title || row.name })),
          ]}
        />
        <SelectMenu
          aria-label="Status"
          compact
          value={status}
          onChange={setStatus}
          options={[
            { value: '', label: 'All statuses' },
            ...PLAYBOOK_RUN_STATUSES.map((value) => ({ value, label: value.replace('_', ' ') })),
          ]}
        />
        <Input
          aria-label="Resource"
          compact
          placeholder="check:, config: or component: id"
          value={resource}
          onChange={(event) => setResource(event.target.value)}
        />
        <UrlTimeRangePicker />
      </div>
      <DataTable
        {...TABLE}
        label="Playbook runs"
        columns={columns}
        data={query.data?.data ?? []}
        totalRowCount={query.data?.totalEntries ?? 0}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        onRowClick={(row) => void navigate(`/playbooks/runs/${row.id}`)}
      />
    </div>
  );
}

/** `check:<id>` and `component:<id>` pick the kind; a bare id is a config. */
function resourceKeyFor(text: string): 'config_id' | 'check_id' | 'component_id' {
  if (text.startsWith('check:')) return 'check_id';
  if (text.startsWith('component:')) return 'component_id';
  return 'config_id';
}
