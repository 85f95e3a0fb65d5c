import clsx from 'clsx';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { useDataTableState } from '../../../components/data-table/use-data-table-state';
import { Age } from '../../../components/date/age';
import { useCan } from '../../../lib/permissions';
import { INTEGRATIONS_KEY, useIntegrationList, type IntegrationRow } from '../api/integrations';
import { AddIntegrationModal } from './add-integration-modal';
import { INTEGRATION_TYPE_LABELS, integrationEditorPath } from './integration-paths';

const TABLE = { tableId: 'settings-integrations', defaultSortOrder: 'asc' } as const;

/** Settings §4 job status colours: RUNNING yellow, SUCCESS green, WARNING orange, FAILED and STOPPED red. */
const JOB_STATUS_CLASSES: Record<string, string> = {
  RUNNING: 'bg-yellow-400',
  SUCCESS: 'bg-green-500',
  WARNING: 'bg-orange-400',
  FAILED: 'bg-red-500',
  STOPPED: 'bg-red-500',
};

function LastRun({ row }: { row: IntegrationRow }) {
  if (!row.job_status) return <span className="text-gray-500">Never run</span>;
  return (
    <span className="inline-flex items-center gap-2">
      <span
        aria-hidden
        className={clsx('h-2 w-2 rounded-full', JOB_STATUS_CLASSES[row.job_status] ?? 'bg-gray-400')}
      />
      <span>{row.job_status}</span>
      {row.job_time_start && <Age value={row.job_time_start} className="text-xs text-gray-500" />}
    </span>
  );
}

function integrationColumns(canEdit: boolean): DataTableColumn<IntegrationRow>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      cell: ({ row }) =>
        canEdit ? (
          <Link
            to={integrationEditorPath(row.original.integration_type, row.original.id)}
            onClick={(event) => event.stopPropagation()}
            className="text-blue-700 hover:underline"
          >
            {row.original.name}
          </Link>
        ) : (
          row.original.name
        ),
    },
    {
      id: 'integration_type',
      header: 'Type',
      accessorKey: 'integration_type',
      cell: ({ row }) =>
        INTEGRATION_TYPE_LABELS[row.original.integration_type] ?? row.original.integration_type,
    },
    { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
    {
      id: 'job_status',
      header: 'Last Run',
      accessorKey: 'job_status',
      cell: ({ row }) => <LastRun row={row.original} />,
    },
    {
      id: 'job_last_failed',
      header: 'Last Failed',
      enableSorting: false,
      cell: ({ row }) => (row.original.job_last_failed ? <Age value={row.original.job_last_failed} /> : null),
    },
    { id: 'schedule', header: 'Schedule', enableSorting: false, accessorKey: 'schedule' },
    { id: 'source', header: 'Source', enableSorting: false, accessorKey: 'source' },
    {
      id: 'created_at',
      header: 'Created',
      accessorKey: 'created_at',
      cell: ({ row }) => <Age value={row.original.created_at} />,
    },
  ];
}

/**
 * /settings/integrations (core §2, settings §2.6): catalog scrapers, topologies and log backends
 * in one list with their last run; a row opens its editor (write needed), and Add Integration
 * opens the wizard.
 */
export function IntegrationsPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCan('integrations', 'write');
  const state = useDataTableState(TABLE);
  const query = useIntegrationList(state);
  const columns = integrationColumns(canWrite);
  const [adding, setAdding] = useState(false);
  if (query.isError && !query.data) throw query.error;
  return (
    <section aria-label="Integrations" className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-gray-900">Integrations</h2>
        {canWrite && (
          <Button variant="primary" onClick={() => setAdding(true)}>
            Add Integration
          </Button>
        )}
      </div>
      <DataTable
        {...TABLE}
        label="Integrations"
        columns={columns}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        emptyMessage="No integrations found"
        getRowId={(row) => row.id}
        onRowClick={
          canWrite ? (row) => void navigate(integrationEditorPath(row.integration_type, row.id)) : undefined
        }
      />
      <AddIntegrationModal
        open={adding}
        onClose={() => setAdding(false)}
        onSuccess={() => {
          setAdding(false);
          void queryClient.invalidateQueries({ queryKey: INTEGRATIONS_KEY });
        }}
      />
    </section>
  );
}
