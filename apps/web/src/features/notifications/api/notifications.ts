import {
  notificationRuleSavedSchema,
  notificationSilencePreviewResponseSchema,
  type NotificationSilencePreviewRequest,
  notificationSummaryResponseSchema,
  relationRowSchemas,
  type NotificationSilenceRequest,
  type NotificationSummaryRequest,
} from '@opsdeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { fetchRows } from '../../../lib/data-api';

export const NOTIFICATIONS_QUERY_KEY = ['notifications'] as const;

/** One page of the send history (POST /api/notification/summary); `rangeMs`: only that recent. */
export const useSendHistory = (request: NotificationSummaryRequest, rangeMs?: number) =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'history', request, rangeMs],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiFetch(
        '/api/notification/summary',
        {
          method: 'POST',
          body: JSON.stringify(
            rangeMs ? { ...request, from: new Date(Date.now() - rangeMs).toISOString() } : request,
          ),
          signal,
        },
        { schema: notificationSummaryResponseSchema },
      ),
  });

const historyDetailSchema = relationRowSchemas.notification_send_history;
const HISTORY_COLUMNS = Object.keys(historyDetailSchema.shape).join(',');

/** One history row with its rendered body and attempts. */
export const useSendHistoryDetail = (id: string | undefined) =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'history-detail', id],
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const rows = await fetchRows(
        `/api/db/notification_send_history?select=${HISTORY_COLUMNS}&id=eq.${encodeURIComponent(id!)}`,
        signal,
        historyDetailSchema,
      );
      return rows[0] ?? null;
    },
  });

const summarySchema = relationRowSchemas.notifications_summary;
const SUMMARY_COLUMNS = Object.keys(summarySchema.shape).join(',');

/** The rules with their counts, newest first (settings lists: at most 100). */
export const useNotificationRules = () =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'rules'],
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/notifications_summary?select=${SUMMARY_COLUMNS}&deleted_at=is.null&order=created_at.desc&limit=100`,
        signal,
        summarySchema,
      ),
  });

const ruleSchema = relationRowSchemas.notifications;
const RULE_COLUMNS = Object.keys(ruleSchema.shape).join(',');

export const useNotificationRule = (id: string | undefined) =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'rule', id],
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const rows = await fetchRows(
        `/api/db/notifications?select=${RULE_COLUMNS}&id=eq.${encodeURIComponent(id!)}&deleted_at=is.null`,
        signal,
        ruleSchema,
      );
      return rows[0] ?? null;
    },
  });

export interface RuleInput {
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
}

/** Create or update a rule through the rule routes (the server validates the spec). */
export function useSaveNotificationRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: RuleInput }) =>
      id
        ? apiFetch(
            `/api/notification/rules/${encodeURIComponent(id)}`,
            { method: 'PUT', body: JSON.stringify({ spec: input.spec }) },
            { schema: notificationRuleSavedSchema },
          )
        : apiFetch(
            '/api/notification/rules',
            { method: 'POST', body: JSON.stringify(input) },
            { schema: notificationRuleSavedSchema },
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}

export function useDeleteNotificationRule() {
  const client = useQueryClient();
  return useMutation({
    // The route refuses with a 403 saying why when the caller's notification permissions do not cover the rule.
    mutationFn: (id: string) =>
      apiFetch(`/api/notification/rules/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}

const silenceSchema = relationRowSchemas.notification_silences;
const SILENCE_COLUMNS = Object.keys(silenceSchema.shape).join(',');

export const useSilences = () =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'silences'],
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/notification_silences?select=${SILENCE_COLUMNS}&deleted_at=is.null&order=created_at.desc&limit=100`,
        signal,
        silenceSchema,
      ),
  });

export function useAddSilence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSilenceRequest) =>
      apiFetch('/api/notification/silence', { method: 'POST', body: JSON.stringify(body) }),
    onSuccess: () => client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}

/** What a silence would have matched lately (POST /api/notification/silence/preview); off while `body` is null. */
export const useSilencePreview = (body: NotificationSilencePreviewRequest | null) =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'silence-preview', body],
    enabled: body !== null,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiFetch(
        '/api/notification/silence/preview',
        { method: 'POST', body: JSON.stringify(body), signal },
        { schema: notificationSilencePreviewResponseSchema },
      ),
  });

/** Soft delete (spec core §7: soft DELETE on silences). */
export function useDeleteSilence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(`/api/notification/silence/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY }),
  });
}

const playbookOptionSchema = relationRowSchemas.playbooks.pick({ id: true, name: true, namespace: true });

/** The playbooks a notification can name as its recipient (`to.playbook`), by namespace and name. */
export const usePlaybookOptions = (enabled: boolean) =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'playbook-options'],
    enabled,
    queryFn: ({ signal }) =>
      fetchRows(
        '/api/db/playbooks?select=id,name,namespace&deleted_at=is.null&order=namespace.asc,name.asc&limit=500',
        signal,
        playbookOptionSchema,
      ),
  });

const namedSchema = relationRowSchemas.checks.pick({ id: true, name: true });

export const RESOURCE_KINDS = {
  check: { label: 'Check', relation: 'checks', field: 'check_id' },
  config: { label: 'Catalog item', relation: 'config_items', field: 'config_id' },
  component: { label: 'Component', relation: 'components', field: 'component_id' },
} as const;
export type SilenceResourceKind = keyof typeof RESOURCE_KINDS;

/** Resources a silence can name, by kind and name search (at most 50). */
export const useResourceOptions = (kind: SilenceResourceKind, search: string) =>
  useQuery({
    queryKey: ['silence-resources', kind, search],
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/${RESOURCE_KINDS[kind].relation}?select=id,name&deleted_at=is.null${
          search.trim() ? `&name=ilike.*${encodeURIComponent(search.trim())}*` : ''
        }&order=name.asc&limit=50`,
        signal,
        namedSchema,
      ),
  });

/** Recent failed deliveries for the top bar's bell (last 24 hours). */
export const useRecentFailures = () =>
  useQuery({
    queryKey: [...NOTIFICATIONS_QUERY_KEY, 'recent-failures'],
    refetchInterval: 60_000,
    queryFn: ({ signal }) =>
      apiFetch(
        '/api/notification/summary',
        {
          method: 'POST',
          body: JSON.stringify({
            status: 'failed',
            pageSize: 5,
            from: new Date(Date.now() - 86_400_000).toISOString(),
          }),
          signal,
        },
        { schema: notificationSummaryResponseSchema },
      ),
  });
