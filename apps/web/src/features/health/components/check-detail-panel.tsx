import { optionsOf, SelectMenu } from '../../../components/select-menu/select-menu';
import { PlaybooksAction } from '../../../components/playbooks-action/playbooks-action';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { HEALTH_TIME_RANGES, RUN_NOW_ROLES } from '@opsdeck/contracts';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { Age, FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { EvidenceAction } from '../../../components/evidence-action/evidence-action';
import { Modal } from '../../../components/modal/modal';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { showErrorToast } from '../../../components/toasts/toasts';
import { formatLatency, formatUptime } from '../../../lib/format';
import { useCurrentAccess } from '../../../lib/permissions';
import { useCheckRow, useCheckStatuses, type CheckStatus } from '../api/check-detail';
import { useCheckRelationships } from '../api/check-relationships';
import { useRunCheck, type RunCheckResult } from '../api/run-check';
import {
  defaultTimeRangeForLastRun,
  DURATION_PRESETS,
  parseDurationFilter,
  type CheckSummary,
} from '../lib/checks';
import { CheckRelationships } from './check-relationships';
import { HealthOverviewChart } from './health-overview-chart';
import { useShortScreen } from './use-short-screen';

const HISTORY_PAGE_SIZE = 50;

export interface CheckDetailPanelProps {
  checkId: string;
  /** The check as the page's summary has it, shown while the panel's own data loads. */
  summary?: CheckSummary;
  /** The URL's timeRange; without it the range follows the last run's age (core §4). */
  timeRange?: string;
  onTimeRangeChange(range: string): void;
  onClose(): void;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-xs text-gray-500">{label}</dt>
      <dd className="text-sm text-gray-900">{children}</dd>
    </div>
  );
}

function History({ statuses }: { statuses: CheckStatus[] }) {
  const [duration, setDuration] = useState('All');
  const [custom, setCustom] = useState('');
  const [page, setPage] = useState({ index: 0, size: HISTORY_PAGE_SIZE });
  const effective = duration === 'custom' ? custom : duration;
  const filter = parseDurationFilter(effective);
  const rows = useMemo(() => {
    const sorted = [...statuses].sort((a, b) => Date.parse(b.time) - Date.parse(a.time));
    return filter.ms === undefined ? sorted : sorted.filter((status) => (status.duration ?? 0) >= filter.ms!);
  }, [statuses, filter.ms]);
  const pageRows = rows.slice(page.index * page.size, (page.index + 1) * page.size);
  const pages = Math.max(1, Math.ceil(rows.length / page.size));
  // A filter change starts again at the first page of 50 (core §5).
  const reset = () => setPage({ index: 0, size: HISTORY_PAGE_SIZE });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-2 text-sm">
        <span className="flex items-center gap-1">
          <span aria-hidden>Duration</span>
          <SelectMenu
            compact
            aria-label="Duration"
            value={duration}
            options={optionsOf(['All', ...DURATION_PRESETS, 'custom'])}
            onChange={(value) => {
              setDuration(value);
              reset();
            }}
          />
        </span>
        {duration === 'custom' && (
          <input
            aria-label="Custom duration"
            value={custom}
            placeholder="e.g. 250ms"
            onChange={(event) => {
              setCustom(event.target.value);
              reset();
            }}
            className="w-28 rounded border border-gray-300 px-1 py-0.5"
          />
        )}
        {filter.error && (
          <span role="alert" className="text-red-700">
            {filter.error}
          </span>
        )}
      </div>
      {pageRows.length === 0 ? (
        <EmptyState />
      ) : (
        <table className="w-full text-left text-sm" aria-label="Check history">
          <thead className="text-xs text-gray-600 uppercase">
            <tr>
              <th className="py-1 pr-2">Time</th>
              <th className="py-1 pr-2">Duration</th>
              <th className="py-1 pr-2">Status</th>
              <th className="py-1">Message</th>
            </tr>
          </thead>
          <tbody>
            {pageRows.map((status) => (
              <tr key={status.time} data-testid="check-history-row" className="border-t border-gray-100">
                <td className="py-1 pr-2 whitespace-nowrap">
                  <FormattedDate value={status.time} />
                </td>
                <td className="py-1 pr-2">
                  {status.duration === null ? '' : formatLatency(status.duration)}
                </td>
                <td className="py-1 pr-2">
                  <StatusDot status={status.status ? 'healthy' : 'unhealthy'} />
                </td>
                <td className="py-1 break-all">{[status.message, status.error].filter(Boolean).join(' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <div className="flex items-center gap-2 text-sm">
          <button
            type="button"
            disabled={page.index === 0}
            onClick={() => setPage({ ...page, index: page.index - 1 })}
          >
            Previous
          </button>
          <span>
            {page.index + 1} / {pages}
          </span>
          <button
            type="button"
            disabled={page.index + 1 >= pages}
            onClick={() => setPage({ ...page, index: page.index + 1 })}
          >
            Next
          </button>
        </div>
      )}
    </div>
  );
}

function RunResult({ result }: { result: RunCheckResult }) {
  const passed = result.failed === 0 && result.success > 0;
  return (
    <span role="status" className={passed ? 'text-green-700' : 'text-red-700'}>
      {passed ? 'Check passed' : 'Check failed'}
      {result.errors && result.errors.length > 0 && `: ${result.errors.join(', ')}`}
    </span>
  );
}

/** The check detail panel (core §2 'Check detail panel (modal)'). */
export function CheckDetailPanel({
  checkId,
  summary,
  timeRange,
  onTimeRangeChange,
  onClose,
}: CheckDetailPanelProps) {
  const range = timeRange ?? defaultTimeRangeForLastRun(summary?.last_runtime);
  const detail = useCheckStatuses(checkId, range);
  const row = useCheckRow(checkId);
  const relationships = useCheckRelationships(checkId);
  const shortScreen = useShortScreen();
  const statuses = detail.data?.checkStatuses ?? [];
  const tabs = ['History', ...(shortScreen ? ['Graph'] : []), 'Spec', 'Relationships'];
  const run = useRunCheck(checkId);
  const { roles } = useCurrentAccess();
  const canRun = roles.some((role) => (RUN_NOW_ROLES as readonly string[]).includes(role));
  const check = detail.data ?? summary;

  const footer = (
    <div className="flex w-full items-center gap-3">
      {row.data?.canary_id && (
        <Link
          // The editor opens on this check's type (a canary may hold several).
          to={`/settings/canaries/${row.data.canary_id}${check?.type ? `?type=${encodeURIComponent(check.type)}` : ''}`}
          className="text-sm text-blue-700 hover:underline"
        >
          Edit
        </Link>
      )}
      <span className="flex-1" />
      {run.data && <RunResult result={run.data} />}
      <PlaybooksAction target={{ kind: 'check', id: checkId, name: check?.name ?? checkId }} />
      <EvidenceAction target={{ kind: 'check', checkId, name: check?.name ?? checkId }} />
      {canRun && (
        <Button
          variant="primary"
          disabled={run.isPending}
          onClick={() => run.mutate(undefined, { onError: (error) => showErrorToast(error) })}
        >
          {run.isPending ? 'Running..' : 'Run Now'}
        </Button>
      )}
    </div>
  );

  return (
    <Modal open onClose={onClose} title={check?.name ?? 'Check'} size="large" footer={footer}>
      {!check ? (
        detail.isPending ? (
          <Skeleton className="h-40" />
        ) : (
          <EmptyState />
        )
      ) : (
        <div className="flex flex-col gap-4">
          <TagList tags={check.labels ?? {}} />
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Field label="Uptime">{formatUptime(check.uptime, 2)}</Field>
            <Field label="Latency">
              {(['p95', 'p97', 'p99'] as const).map((key) => (
                <span key={key} className="mr-2">
                  {key}: {formatLatency(check.latency?.[key]) || '-'}
                </span>
              ))}
            </Field>
            <Field label="Severity">{row.data?.severity ?? '-'}</Field>
            <Field label="Last run">
              <Age value={check.last_runtime} />
            </Field>
            <Field label="Transitioned">
              <Age value={check.last_transition_time} />
            </Field>
            <Field label="Next run">
              <FormattedDate value={row.data?.next_runtime} />
            </Field>
            <Field label="Time range">
              <SelectMenu
                compact
                aria-label="Time range"
                value={range}
                options={optionsOf(HEALTH_TIME_RANGES)}
                onChange={onTimeRangeChange}
              />
            </Field>
          </dl>
          {!shortScreen &&
            (detail.isPending ? <Skeleton className="h-44" /> : <HealthOverviewChart statuses={statuses} />)}
          <TabGroup>
            <TabList className="flex gap-2 border-b border-gray-200">
              {tabs.map((name) => (
                <Tab
                  key={name}
                  className="flex items-center gap-1 px-3 py-1 text-sm data-selected:border-b-2 data-selected:border-blue-600 data-selected:text-blue-700"
                >
                  {name}
                  {name === 'Relationships' && relationships.data && (
                    <span
                      aria-label={`${relationships.data.length} related`}
                      className="rounded-full bg-gray-200 px-1.5 text-xs text-gray-700"
                    >
                      {relationships.data.length}
                    </span>
                  )}
                </Tab>
              ))}
            </TabList>
            <TabPanels className="pt-3">
              <TabPanel>
                {detail.isPending ? <Skeleton className="h-32" /> : <History statuses={statuses} />}
              </TabPanel>
              {shortScreen && (
                <TabPanel>
                  <HealthOverviewChart statuses={statuses} height={140} />
                </TabPanel>
              )}
              <TabPanel>
                <pre className="overflow-auto rounded bg-gray-50 p-2 text-xs">
                  {row.data?.spec === undefined ? '' : JSON.stringify(row.data.spec, null, 2)}
                </pre>
              </TabPanel>
              <TabPanel>
                {relationships.isPending ? (
                  <Skeleton className="h-16" />
                ) : (
                  <CheckRelationships items={relationships.data ?? []} />
                )}
              </TabPanel>
            </TabPanels>
          </TabGroup>
        </div>
      )}
    </Modal>
  );
}
