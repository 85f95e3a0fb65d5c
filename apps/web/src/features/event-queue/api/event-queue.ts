import {
  EVENT_QUEUE_API_PATH,
  eventQueueActionResponseSchema,
  eventQueueFailedResponseSchema,
  eventQueueSummaryResponseSchema,
  type EventQueueSelection,
} from '@opsdeck/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export const eventQueueKeys = {
  all: ['event-queue'] as const,
  summary: () => [...eventQueueKeys.all, 'summary'] as const,
  failed: (name: string | undefined) => [...eventQueueKeys.all, 'failed', name ?? ''] as const,
};

/** Per event name; refreshed every 10 s while the page is open. */
export const eventQueueSummaryQueryOptions = () =>
  queryOptions({
    queryKey: eventQueueKeys.summary(),
    queryFn: ({ signal }) =>
      apiFetch(`${EVENT_QUEUE_API_PATH}/summary`, { signal }, { schema: eventQueueSummaryResponseSchema }),
    refetchInterval: 10_000,
  });

/** The failed events (of one name when given), newest failure first. */
export const failedEventsQueryOptions = (name: string | undefined) =>
  queryOptions({
    queryKey: eventQueueKeys.failed(name),
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ limit: '500' });
      if (name) search.set('name', name);
      return apiFetch(
        `${EVENT_QUEUE_API_PATH}/failed?${search.toString()}`,
        { signal },
        { schema: eventQueueFailedResponseSchema },
      );
    },
  });

/** Retry (requeue) or discard (delete) failed events; both refresh the page's queries. */
export function useEventQueueAction(action: 'retry' | 'discard') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selection: EventQueueSelection) =>
      apiFetch(
        `${EVENT_QUEUE_API_PATH}/${action}`,
        { method: 'POST', body: JSON.stringify(selection) },
        { schema: eventQueueActionResponseSchema },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: eventQueueKeys.all }),
  });
}
