import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiResponseError } from '../../../lib/api-client';
import { incidentListQueryOptions } from './incident-list';

/** A row of incident_summary as the list selects it, as the data API sends it. */
const row = {
  id: '6f0c3a52-0f4e-4c55-9d37-8b1f3f1d2a10',
  incident_id: 'INC0000042',
  title: 'Checkout is slow',
  severity: 'high',
  type: 'performance',
  status: 'open',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:05:00Z',
  commander: { id: 'p1', name: 'Ada', avatar: null },
  creator: null,
  responders_count: 1,
  hypotheses_count: 0,
  comments_count: 2,
  time_to_resolve: null,
};

function answer(rows: unknown[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(
        new Response(JSON.stringify(rows), {
          status: 200,
          headers: {
            'Content-Type': 'application/json',
            'Content-Range': `0-${rows.length - 1}/${rows.length}`,
          },
        }),
      ),
    ),
  );
}

const fetchList = () =>
  new QueryClient().fetchQuery(incidentListQueryOptions({}, { pageIndex: 0, pageSize: 50 }));

afterEach(() => vi.unstubAllGlobals());

describe('the incident list parses its rows with the incident_summary row schema', () => {
  it('gives the rows the contract describes', async () => {
    answer([row]);
    await expect(fetchList()).resolves.toEqual({ rows: [row], total: 1 });
  });

  it('rejects a drifted row with an ApiResponseError naming the field', async () => {
    answer([row, { ...row, severity: 'urgent' }]);
    const error = await fetchList().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).issues[0]?.path).toBe('[1].severity');
    expect((error as ApiResponseError).message).toMatch(/: \[1\]\.severity: /);
  });
});
