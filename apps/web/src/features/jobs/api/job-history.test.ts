import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiResponseError } from '../../../lib/api-client';
import { JOB_HISTORY_SELECT } from '../lib/job-history-query';
import { jobHistoryQueryOptions, type JobHistoryItem } from './job-history';

const row: JobHistoryItem = {
  id: '9b0a4c36-0000-4000-8000-000000000001',
  name: 'SyncCanaries',
  agent_id: '00000000-0000-0000-0000-000000000000',
  agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
  resource_id: null,
  resource_type: null,
  resource_name: null,
  status: 'SUCCESS',
  time_start: '2026-11-27T10:00:00.123456+00:00',
  duration_millis: 1200,
  success_count: 3,
  error_count: 0,
  details: {},
};

function serve(rows: unknown[]) {
  const spy = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(rows), {
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          'Content-Range': `0-${rows.length - 1}/${rows.length}`,
        },
      }),
  );
  vi.stubGlobal('fetch', spy);
  return spy;
}

const fetchPage = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery(
    jobHistoryQueryOptions({}, { pageIndex: 0, pageSize: 50, sortOrder: 'desc' }),
  );

afterEach(() => vi.unstubAllGlobals());

describe('job history rows', () => {
  it('selects the columns of its row schema and reads rows that match it, dropping other columns', async () => {
    const spy = serve([{ ...row, hostname: 'worker-1' }]);
    const page = await fetchPage();
    expect(page).toEqual({ rows: [row], total: 1 });
    const url = new URL(String(spy.mock.calls[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('select')).toBe(JOB_HISTORY_SELECT);
    expect(JOB_HISTORY_SELECT.split(',')).toEqual(Object.keys(row));
  });

  it('rejects a row that drifted from the contract with an ApiResponseError naming the row and column', async () => {
    serve([row, { ...row, status: 'DONE' }]);
    const error: unknown = await fetchPage().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    if (!(error instanceof ApiResponseError))
      throw new Error(`expected an ApiResponseError, got ${String(error)}`);
    expect(error.path).toMatch(/^\/api\/db\/job_histories\?/);
    expect(error.issues.map((issue) => issue.path)).toEqual(['[1].status']);
    expect(error.message).toContain('[1].status');
  });
});
