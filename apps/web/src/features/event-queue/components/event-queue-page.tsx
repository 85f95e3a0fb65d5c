import type { EventQueueFailedEvent, EventQueueNameSummary } from '@opsdeck/contracts';
import { useQuery } from '@tanstack/react-query';
import { RotateCcw, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { DataTable, type DataTableColumn } from '../../../components/data-table/data-table';
import { Age } from '../../../components/date/age';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import {
  eventQueueSummaryQueryOptions,
  failedEventsQueryOptions,
  useEventQueueAction,
} from '../api/event-queue';
import { confirmationText, formatAge } from '../lib/format';

interface PendingAction {
  action: 'retry' | 'discard';
  count: number;
  name?: string;
  ids?: string[];
}

function ActionButtons({
  label,
  onAction,
}: {
  label: string;
  onAction: (action: 'retry' | 'discard') => void;
}) {
  return (
    <div className="flex gap-1">
      <button
        type="button"
        aria-label={`Retry ${label}`}
        title="Retry"
        onClick={(event) => {
          event.stopPropagation();
          onAction('retry');
        }}
        className="rounded p-1 text-gray-500 hover:bg-blue-50 hover:text-blue-700"
      >
        <RotateCcw className="size-4" aria-hidden />
      </button>
      <button
        type="button"
        aria-label={`Discard ${label}`}
        title="Discard"
        onClick={(event) => {
          event.stopPropagation();
          onAction('discard');
        }}
        className="rounded p-1 text-gray-500 hover:bg-red-50 hover:text-red-600"
      >
        <Trash2 className="size-4" aria-hidden />
      </button>
    </div>
  );
}

function useSummaryColumns(
  canWrite: boolean,
  onAction: (pending: PendingAction) => void,
): DataTableColumn<EventQueueNameSummary>[] {
  return useMemo(() => {
    const columns: DataTableColumn<EventQueueNameSummary>[] = [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      { id: 'pending', header: 'Pending', accessorKey: 'pending' },
      { id: 'in_flight', header: 'In flight', accessorKey: 'in_flight' },
      {
        id: 'failed',
        header: 'Failed',
        accessorKey: 'failed',
        cell: ({ row }) => (
          <span className={row.original.failed > 0 ? 'font-semibold text-red-700' : undefined}>
            {row.original.failed}
          </span>
        ),
      },
      {
        id: 'oldest_pending_age_seconds',
        header: 'Oldest pending',
        accessorFn: (row) => row.oldest_pending_age_seconds ?? -1,
        cell: ({ row }) => formatAge(row.original.oldest_pending_age_seconds),
      },
      { id: 'average_attempts', header: 'Avg attempts', accessorKey: 'average_attempts' },
      {
        id: 'last_error',
        header: 'Last error',
        accessorFn: (row) => row.last_error ?? '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.last_error ? (
            <span className="line-clamp-2 text-xs text-red-700" title={row.original.last_error}>
              {row.original.last_error}
            </span>
          ) : null,
      },
    ];
    if (canWrite) {
      columns.push({
        id: 'actions',
        header: '',
        enableSorting: false,
        cell: ({ row }) =>
          row.original.failed > 0 ? (
            <ActionButtons
              label={`all failed ${row.original.name} events`}
              onAction={(action) => onAction({ action, count: row.original.failed, name: row.original.name })}
            />
          ) : null,
      });
    }
    return columns;
  }, [canWrite, onAction]);
}

function useFailedColumns(
  canWrite: boolean,
  onAction: (pending: PendingAction) => void,
): DataTableColumn<EventQueueFailedEvent>[] {
  return useMemo(() => {
    const columns: DataTableColumn<EventQueueFailedEvent>[] = [
      { id: 'name', header: 'Name', accessorKey: 'name' },
      {
        id: 'error',
        header: 'Error',
        accessorFn: (row) => row.error ?? '',
        enableSorting: false,
        cell: ({ row }) => <span className="text-xs text-red-700">{row.original.error}</span>,
      },
      { id: 'attempts', header: 'Attempts', accessorKey: 'attempts' },
      {
        id: 'created_at',
        header: 'Created',
        accessorKey: 'created_at',
        cell: ({ row }) => <Age value={row.original.created_at} />,
      },
      {
        id: 'last_attempt',
        header: 'Last attempt',
        accessorFn: (row) => row.last_attempt ?? '',
        cell: ({ row }) => (row.original.last_attempt ? <Age value={row.original.last_attempt} /> : null),
      },
      {
        id: 'properties',
        header: 'Properties',
        enableSorting: false,
        accessorFn: (row) => JSON.stringify(row.properties),
        cell: ({ row }) => (
          <code className="line-clamp-2 text-xs text-gray-600">
            {JSON.stringify(row.original.properties)}
          </code>
        ),
      },
    ];
    if (canWrite) {
      columns.push({
        id: 'actions',
        header: '',
        enableSorting: false,
        cell: ({ row }) => (
          <ActionButtons
            label={`event ${row.original.id}`}
            onAction={(action) => onAction({ action, count: 1, ids: [row.original.id] })}
          />
        ),
      });
    }
    return columns;
  }, [canWrite, onAction]);
}

/**
 * Event Queue (`/settings/event-queue-status`): per event name the pending, in-flight and failed
 * counts, the oldest pending age, average attempts and last error; below, the failed events with
 * their error (of the name chosen by clicking a row, `?name=`). Writers retry or discard failed
 * events, one or all of a name, after a confirmation.
 */
export function EventQueuePage() {
  const [params, setParams] = useSearchParams();
  const name = params.get('name') ?? undefined;
  const summary = useQuery(eventQueueSummaryQueryOptions());
  const failed = useQuery(failedEventsQueryOptions(name));
  const canWrite = useCan('database', 'write');
  const retry = useEventQueueAction('retry');
  const discard = useEventQueueAction('discard');
  const [pending, setPending] = useState<PendingAction | null>(null);
  const summaryColumns = useSummaryColumns(canWrite, setPending);
  const failedColumns = useFailedColumns(canWrite, setPending);
  if (summary.isError && !summary.data) throw summary.error;

  async function confirm() {
    if (!pending) return;
    const mutation = pending.action === 'retry' ? retry : discard;
    try {
      const { count } = await mutation.mutateAsync(
        pending.ids ? { ids: pending.ids } : { name: pending.name },
      );
      showSuccessToast(
        `${count} event${count === 1 ? '' : 's'} ${pending.action === 'retry' ? 'requeued' : 'discarded'}`,
      );
      setPending(null);
    } catch (error) {
      showErrorToast(error);
    }
  }

  function chooseName(next: string | undefined) {
    const search = new URLSearchParams(params);
    if (next) search.set('name', next);
    else search.delete('name');
    setParams(search, { replace: true });
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-gray-600">
        Events waiting to be handled by the workers, per event name. Failed events have used all their
        attempts; retry them once their cause is fixed.
      </p>
      <DataTable
        tableId="event-queue-summary"
        label="Event queue"
        columns={summaryColumns}
        data={summary.data?.names ?? []}
        isLoading={summary.isPending}
        getRowId={(row) => row.name}
        onRowClick={(row) => chooseName(row.name)}
      />
      <div className="flex items-center justify-between gap-4">
        <h2 className="text-base font-semibold text-gray-900">
          Failed events{name ? ` of ${name}` : ''}
          {failed.data ? ` (${failed.data.total})` : ''}
        </h2>
        {name ? (
          <Button variant="link" onClick={() => chooseName(undefined)}>
            Show all names
          </Button>
        ) : null}
      </div>
      <DataTable
        tableId="event-queue-failed"
        label="Failed events"
        columns={failedColumns}
        data={failed.data?.events ?? []}
        isLoading={failed.isPending}
        getRowId={(row) => row.id}
      />
      <ConfirmationDialog
        open={pending !== null}
        title={pending?.action === 'retry' ? 'Retry failed events' : 'Discard failed events'}
        description={pending ? confirmationText(pending.action, pending.count, pending.name) : undefined}
        confirmLabel={pending?.action === 'retry' ? 'Retry' : 'Discard'}
        variant={pending?.action === 'retry' ? 'approve' : 'delete'}
        isLoading={retry.isPending || discard.isPending}
        onConfirm={() => void confirm()}
        onClose={() => setPending(null)}
      />
    </div>
  );
}
