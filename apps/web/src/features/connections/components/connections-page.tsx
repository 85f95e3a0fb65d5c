import { CONNECTION_TYPES, type Connection, type ConnectionType } from '@opsdeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/button/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { Age } from '../../../components/date/age';
import { Modal } from '../../../components/modal/modal';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { showErrorToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { connectionQueryOptions, connectionsQueryOptions } from '../api/connections';
import { ConnectionForm, connectionTypeFor } from './connection-form';
import { ConnectionHealthDot } from './connection-health-dot';

function useColumns(): DataTableColumn<Connection>[] {
  return useMemo(
    () => [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      { id: 'namespace', header: 'Namespace', accessorKey: 'namespace' },
      {
        id: 'type',
        header: 'Type',
        accessorFn: (row) => connectionTypeFor(row).label,
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-2">
            <ResourceIcon type={row.original.type} />
            {connectionTypeFor(row.original).label}
          </span>
        ),
      },
      {
        id: 'health',
        header: 'Health',
        accessorFn: (row) => row.last_test_status ?? '',
        cell: ({ row }) => (
          <span
            className="inline-flex items-center gap-2"
            title={row.original.last_test_message ?? undefined}
          >
            <ConnectionHealthDot status={row.original.last_test_status} />
            <span className="text-gray-600">{row.original.last_test_status ?? 'not tested'}</span>
          </span>
        ),
      },
      { id: 'created_by', header: 'Created By', accessorFn: (row) => row.created_by?.name ?? '' },
      {
        id: 'updated_at',
        header: 'Updated',
        accessorKey: 'updated_at',
        cell: ({ row }) => <Age value={row.original.updated_at} />,
      },
    ],
    [],
  );
}

/** Add a connection: a picker of every type in the catalogue (settings §3). */
function TypePicker({ onPick }: { onPick(type: ConnectionType): void }) {
  const groups: [string, ConnectionType[]][] = [
    ['Connections', CONNECTION_TYPES.filter((type) => type.category === 'connection' && !type.hidden)],
    ['Notifications', CONNECTION_TYPES.filter((type) => type.category === 'notification')],
  ];
  return (
    <div className="flex flex-col gap-4">
      {groups.map(([title, types]) => (
        <section key={title} aria-label={title}>
          <h3 className="mb-2 text-sm font-medium text-gray-700">{title}</h3>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
            {types.map((type) => (
              <button
                key={type.type}
                type="button"
                onClick={() => onPick(type)}
                className="flex items-center gap-2 rounded-md border border-gray-200 px-3 py-2 text-left text-sm hover:border-blue-400 hover:bg-blue-50"
              >
                <ResourceIcon type={type.type} />
                {type.label}
              </button>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

/** An existing connection's form, read by id: secrets in full for those who may edit them. */
function EditConnection({ id, canEdit, onDone }: { id: string; canEdit: boolean; onDone(): void }) {
  const query = useQuery(connectionQueryOptions(id));
  useEffect(() => {
    if (query.isError) showErrorToast(query.error);
  }, [query.isError, query.error]);
  if (!query.data) return <PageSkeleton lines={4} />;
  return (
    <ConnectionForm
      type={connectionTypeFor(query.data)}
      connection={query.data}
      canEdit={canEdit}
      onDone={onDone}
    />
  );
}

type Dialog =
  { mode: 'pick' } | { mode: 'new'; type: ConnectionType } | { mode: 'edit'; connection: Connection };

/** Connections (`/settings/connections`): the list, Add with a type picker, and a form per type. */
export function ConnectionsPage() {
  const query = useQuery(connectionsQueryOptions());
  const canEdit = useCan('connections', 'write');
  const columns = useColumns();
  const [dialog, setDialog] = useState<Dialog>();

  // Settings §8: a failed load of the connection list shows its message as a toast.
  useEffect(() => {
    if (query.isError) showErrorToast(query.error, { id: 'connections-load' });
  }, [query.isError, query.error]);

  const close = () => setDialog(undefined);
  const title =
    dialog?.mode === 'pick'
      ? 'Add Connection'
      : dialog?.mode === 'new'
        ? `Add Connection - ${dialog.type.label}`
        : dialog?.mode === 'edit'
          ? `${dialog.connection.name} - ${connectionTypeFor(dialog.connection).label}`
          : '';

  return (
    <div className="flex flex-col gap-3">
      {canEdit && (
        <div className="flex justify-end">
          <Button variant="primary" onClick={() => setDialog({ mode: 'pick' })}>
            Add Connection
          </Button>
        </div>
      )}
      <DataTable
        tableId="connections"
        label="Connections"
        columns={columns}
        data={query.data ?? []}
        isLoading={query.isPending}
        getRowId={(row) => row.id}
        defaultSortBy="name"
        onRowClick={(connection) => setDialog({ mode: 'edit', connection })}
      />
      <Modal
        open={dialog !== undefined}
        onClose={close}
        title={title}
        size="large"
        allowBackgroundClose={false}
      >
        {dialog?.mode === 'pick' && <TypePicker onPick={(type) => setDialog({ mode: 'new', type })} />}
        {dialog?.mode === 'new' && (
          <ConnectionForm
            key={dialog.type.type}
            type={dialog.type}
            canEdit={canEdit}
            onDone={close}
            onBack={() => setDialog({ mode: 'pick' })}
          />
        )}
        {dialog?.mode === 'edit' && (
          <EditConnection
            key={dialog.connection.id}
            id={dialog.connection.id}
            canEdit={canEdit}
            onDone={close}
          />
        )}
      </Modal>
    </div>
  );
}
