import {
  NOTIFICATION_LIST_PAGE_SIZE,
  NOTIFICATION_RESOURCE_TYPES,
  NOTIFICATION_SEND_STATUSES,
  type NotificationSendHistorySummaryRow,
  type NotificationSummaryRequest,
} from '@opsdeck/contracts';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { optionsOf, SelectMenu } from '../../../components/select-menu/select-menu';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { useSendHistory, useSendHistoryDetail } from '../api/notifications';
import { NotificationTabs } from './notification-tabs';
import { SendStatusBadge } from './status-badge';

/** Spec core §9: the notification list's default page size is 1000. */
const PAGE_SIZE = NOTIFICATION_LIST_PAGE_SIZE;
const RANGES: Record<string, number | undefined> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  all: undefined,
};
const RANGE_OPTIONS = [
  { value: '1h', label: 'Last hour' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'all', label: 'All time' },
];
const STATUS_OPTIONS = [{ value: '', label: 'All statuses' }, ...optionsOf(NOTIFICATION_SEND_STATUSES)];
const RESOURCE_TYPE_OPTIONS = [
  { value: '', label: 'All resource types' },
  ...optionsOf(NOTIFICATION_RESOURCE_TYPES),
];

function HistoryDetail({ row, onClose }: { row: NotificationSendHistorySummaryRow; onClose(): void }) {
  const detail = useSendHistoryDetail(row.id);
  return (
    <Modal open onClose={onClose} title={row.title ?? row.source_event ?? 'Notification'} size="large">
      {detail.isPending ? (
        <Skeleton className="h-32" />
      ) : detail.isError ? (
        <p className="text-sm text-red-700">{String(detail.error)}</p>
      ) : !detail.data ? (
        <EmptyState />
      ) : (
        <div className="flex flex-col gap-4 text-sm">
          <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-1">
            <dt className="text-gray-600">Status</dt>
            <dd>
              <SendStatusBadge status={detail.data.status} />
            </dd>
            <dt className="text-gray-600">Event</dt>
            <dd>{detail.data.source_event}</dd>
            <dt className="text-gray-600">Recipient</dt>
            <dd>{detail.data.recipient ?? '—'}</dd>
            {detail.data.playbook_run_id && (
              <>
                <dt className="text-gray-600">Playbook run</dt>
                <dd>
                  <Link
                    to={`/playbooks/runs/${detail.data.playbook_run_id}`}
                    className="text-blue-700 hover:underline"
                  >
                    View run
                  </Link>
                </dd>
              </>
            )}
            {detail.data.error && (
              <>
                <dt className="text-gray-600">Error</dt>
                <dd className="text-red-700">{detail.data.error}</dd>
              </>
            )}
            {detail.data.count > 1 && (
              <>
                <dt className="text-gray-600">Events</dt>
                <dd>{detail.data.count}</dd>
              </>
            )}
          </dl>
          {detail.data.body && (
            <section aria-label="Message">
              <h3 className="mb-1 font-medium">Message</h3>
              <pre className="rounded bg-gray-50 p-3 font-mono text-xs whitespace-pre-wrap">
                {detail.data.body}
              </pre>
            </section>
          )}
          <section aria-label="Attempts">
            <h3 className="mb-1 font-medium">Attempts</h3>
            {detail.data.attempts.length === 0 ? (
              <p className="text-gray-600">No delivery attempts</p>
            ) : (
              <table className="w-full text-left">
                <thead className="text-xs text-gray-600 uppercase">
                  <tr>
                    <th className="py-1 pr-3">Time</th>
                    <th className="py-1 pr-3">Status</th>
                    <th className="py-1">Error</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.data.attempts.map((attempt, index) => (
                    <tr key={index} className="border-t border-gray-100">
                      <td className="py-1 pr-3">
                        <FormattedDate value={attempt.at} />
                      </td>
                      <td className="py-1 pr-3">
                        <SendStatusBadge status={attempt.status} />
                      </td>
                      <td className="py-1">{attempt.error ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
      )}
    </Modal>
  );
}

/**
 * /notifications and /notifications/resource/{resourceId}: the send history, filtered by status,
 * resource type, search and time range, paged by the server; a row opens its message and attempts.
 */
export function NotificationHistoryPage() {
  const { resourceId } = useParams();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const resourceType = params.get('resourceType') ?? '';
  const range = params.get('range') ?? '7d';
  const pageIndex = Number(params.get('pageIndex') ?? '0') || 0;
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [open, setOpen] = useState<NotificationSendHistorySummaryRow | null>(null);
  const rangeMs = RANGES[range];
  const request: NotificationSummaryRequest = {
    pageIndex,
    pageSize: PAGE_SIZE,
    ...(status ? { status: status as NotificationSummaryRequest['status'] } : {}),
    ...(resourceType ? { resourceType: resourceType as NotificationSummaryRequest['resourceType'] } : {}),
    ...(params.get('search') ? { search: params.get('search')! } : {}),
    ...(resourceId ? { resourceId } : {}),
  };
  const history = useSendHistory(request, rangeMs);
  if (history.isError && !history.data) throw history.error;
  const update = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'pageIndex') next.delete('pageIndex');
    setParams(next);
  };
  const total = history.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="flex flex-col gap-4">
      <NotificationTabs />
      {resourceId && (
        <p className="text-sm text-gray-700">
          What was sent about {history.data?.results[0]?.resource?.name ?? 'this resource'}
        </p>
      )}
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          update('search', search.trim());
        }}
      >
        <SelectMenu
          aria-label="Status"
          value={status}
          onChange={(value) => update('status', value)}
          options={STATUS_OPTIONS}
          compact
        />
        <SelectMenu
          aria-label="Resource type"
          value={resourceType}
          onChange={(value) => update('resourceType', value)}
          options={RESOURCE_TYPE_OPTIONS}
          compact
        />
        <SelectMenu
          aria-label="Time range"
          value={range}
          onChange={(value) => update('range', value)}
          options={RANGE_OPTIONS}
          compact
        />
        <Input
          aria-label="Search"
          placeholder="Search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          compact
        />
        <Button type="submit" variant="secondary" size="sm">
          Search
        </Button>
      </form>
      {history.isPending ? (
        <Skeleton className="h-32" />
      ) : history.data.results.length === 0 ? (
        <EmptyState />
      ) : (
        <>
          <table aria-label="Notification history" className="w-full text-left text-sm">
            <thead className="text-xs text-gray-600 uppercase">
              <tr>
                <th className="py-1 pr-3">Time</th>
                <th className="py-1 pr-3">Notification</th>
                <th className="py-1 pr-3">Resource</th>
                <th className="py-1 pr-3">Event</th>
                <th className="py-1 pr-3">Recipient</th>
                <th className="py-1 pr-3">Status</th>
                <th className="py-1">Error</th>
              </tr>
            </thead>
            <tbody>
              {history.data.results.map((row) => (
                <tr
                  key={row.id}
                  tabIndex={0}
                  className="cursor-pointer border-t border-gray-100 hover:bg-gray-50"
                  onClick={() => setOpen(row)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') setOpen(row);
                  }}
                >
                  <td className="py-1.5 pr-3">
                    <FormattedDate value={row.created_at} />
                  </td>
                  <td className="py-1.5 pr-3">{row.notification?.name ?? ''}</td>
                  <td className="py-1.5 pr-3">{row.resource?.name ?? row.resource_type ?? ''}</td>
                  <td className="py-1.5 pr-3">{row.source_event}</td>
                  <td className="py-1.5 pr-3">
                    {row.recipient ?? ''}
                    {row.playbook_run_id && (
                      <Link
                        to={`/playbooks/runs/${row.playbook_run_id}`}
                        className="ml-2 text-blue-700 hover:underline"
                        onClick={(event) => event.stopPropagation()}
                        onKeyDown={(event) => event.stopPropagation()}
                      >
                        View run
                      </Link>
                    )}
                  </td>
                  <td className="py-1.5 pr-3">
                    <SendStatusBadge status={row.status} />
                    {row.count > 1 && <span className="ml-1 text-xs text-gray-600">×{row.count}</span>}
                  </td>
                  <td className="py-1.5 text-red-700">{row.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex items-center gap-2 text-sm">
            <span>
              {total} notifications · page {pageIndex + 1} of {pages}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={pageIndex === 0}
              onClick={() => update('pageIndex', String(pageIndex - 1))}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={pageIndex + 1 >= pages}
              onClick={() => update('pageIndex', String(pageIndex + 1))}
            >
              Next
            </Button>
          </div>
        </>
      )}
      {open && <HistoryDetail row={open} onClose={() => setOpen(null)} />}
    </div>
  );
}
