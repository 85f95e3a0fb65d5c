import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions/use-can';
import type { NotificationSilenceRow } from '@opsdeck/contracts';
import { useDeleteSilence, useSilences } from '../api/notifications';
import { NOTIFICATION_SILENCES_PATH, NotificationTabs } from './notification-tabs';

function resourceOf(silence: NotificationSilenceRow): string {
  if (silence.check_id) return `check ${silence.check_id}`;
  if (silence.config_id) return `catalog item ${silence.config_id}`;
  if (silence.component_id) return `component ${silence.component_id}`;
  if (silence.canary_id) return `canary ${silence.canary_id}`;
  if (silence.selectors && silence.selectors.length > 0) {
    return silence.selectors
      .map((selector) =>
        Object.entries(selector)
          .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`)
          .join(' '),
      )
      .join('; ');
  }
  return '';
}

/** /notifications/silences: the active and scheduled silences; Add Silence needs write. */
export function SilencesPage() {
  const silences = useSilences();
  const canWrite = useCan('notifications', 'write');
  const remove = useDeleteSilence();
  const [deleting, setDeleting] = useState<NotificationSilenceRow | null>(null);
  if (silences.isError && !silences.data) throw silences.error;
  return (
    <div className="flex flex-col gap-4">
      <NotificationTabs />
      <div className="flex items-center gap-3">
        <h2 className="text-base font-semibold">Silences</h2>
        {canWrite && (
          <Link
            to={`${NOTIFICATION_SILENCES_PATH}/add`}
            className={buttonClasses({ variant: 'primary', className: 'ml-auto' })}
          >
            Add Silence
          </Link>
        )}
      </div>
      {silences.isPending ? (
        <Skeleton className="h-32" />
      ) : silences.data.length === 0 ? (
        <EmptyState />
      ) : (
        <table aria-label="Silences" className="w-full text-left text-sm">
          <thead className="text-xs text-gray-600 uppercase">
            <tr>
              <th className="py-1 pr-3">Description</th>
              <th className="py-1 pr-3">Resource</th>
              <th className="py-1 pr-3">Filter</th>
              <th className="py-1 pr-3">From</th>
              <th className="py-1 pr-3">Until</th>
              <th className="py-1 pr-3">Recursive</th>
              <th className="py-1" />
            </tr>
          </thead>
          <tbody>
            {silences.data.map((silence) => (
              <tr key={silence.id} className="border-t border-gray-100">
                <td className="py-1.5 pr-3">{silence.description ?? ''}</td>
                <td className="py-1.5 pr-3">{resourceOf(silence)}</td>
                <td className="py-1.5 pr-3 font-mono text-xs">{silence.filter ?? ''}</td>
                <td className="py-1.5 pr-3">
                  <FormattedDate value={silence.from} />
                </td>
                <td className="py-1.5 pr-3">
                  {silence.until ? <FormattedDate value={silence.until} /> : 'Indefinitely'}
                </td>
                <td className="py-1.5 pr-3">{silence.recursive ? 'Yes' : 'No'}</td>
                <td className="py-1.5 text-right">
                  {canWrite && (
                    <Button variant="secondary" size="sm" onClick={() => setDeleting(silence)}>
                      Delete
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deleting && (
        <ConfirmationDialog
          open
          title="Delete silence?"
          description="Notifications it mutes will be sent again."
          isLoading={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                setDeleting(null);
                showSuccessToast('Silence deleted successfully');
              },
              onError: (error) => showErrorToast(error),
            })
          }
        />
      )}
    </div>
  );
}
