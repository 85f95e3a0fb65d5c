import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { scheduleRun } from './runner.js';

// ADR 0042: a process that holds a run and stalls (SIGSTOP: no lease renewal, nothing runs) past
// its 1 s lease is replaced by another; when it wakes up it must not write the outcome of the
// action it had started nor go on to the next action while the new holder works the run.

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-fixtures/runner-process.ts');
let db: TestDatabase;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-stalled-'));
}, 60_000);

afterAll(async () => {
  for (const child of children) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  await rm(dir, { recursive: true, force: true });
  await db?.close();
});

function startReplica(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT], {
    env: { ...process.env, DATABASE_URL: db.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('started')) resolve(child);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', () => reject(new Error(`the replica exited: ${output}`)));
  });
}

async function ledger(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
}

describe('a holder that stalled past its lease', () => {
  it('stops when it wakes: the new holder alone writes the outcome and runs the next actions', async () => {
    const file = path.join(dir, 'ledger');
    const spec = {
      actions: [
        {
          name: 'first',
          retry: { limit: 1, duration: '100ms' },
          exec: { script: `echo "first start" >> ${file}; sleep 3; echo "first end" >> ${file}` },
        },
        { name: 'second', exec: { script: `echo second >> ${file}` } },
        { name: 'third', exec: { script: `echo third >> ${file}` } },
      ],
    };
    const playbook = await db.pool.query<{ id: string }>(
      `INSERT INTO playbooks (name, spec) VALUES ('stalled', $1) RETURNING id`,
      [spec],
    );
    const stalled = await startReplica();
    const run = await db.pool.query<{ id: string }>(
      'INSERT INTO playbook_runs (playbook_id, spec, parameters) VALUES ($1, $2, $3) RETURNING id',
      [playbook.rows[0].id, spec, {}],
    );
    const runId = run.rows[0].id;
    await scheduleRun(db.pool, runId);
    const generous = { timeoutMs: 90_000, intervalMs: 50 };
    await waitFor(async () => (await ledger(file)).includes('first start'), {
      ...generous,
      what: 'the first holder to start the first action',
    });
    // The first holder stalls mid-action; its script goes on (its own process group).
    stalled.kill('SIGSTOP');

    await startReplica();
    // The second holder takes the run after the lease lapsed and retries the interrupted action;
    // meanwhile the stalled holder's script finishes.
    await waitFor(
      async () => {
        const lines = await ledger(file);
        return lines.filter((line) => line === 'first start').length === 2 && lines.includes('first end');
      },
      { ...generous, what: 'the second holder to retry the first action, the stalled script to end' },
    );
    // The stalled holder wakes while the second holder's attempt still sleeps. Without the hold
    // check it would mark the action completed and run `second` now, before that attempt ends.
    stalled.kill('SIGCONT');

    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          'SELECT status FROM playbook_runs WHERE id = $1',
          [runId],
        );
        return rows[0].status === 'completed';
      },
      { ...generous, what: 'the run to complete' },
    );
    // The woken holder has had time to act on the run.
    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM job_history
            WHERE name = 'playbook action first' AND status = 'STOPPED'
              AND details -> 'errors' ? 'another process took the run over'`,
        );
        return rows[0].n === 1;
      },
      { ...generous, what: 'the woken holder to stop its action for the new holder' },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));

    // Both attempts of the first action ran (the stalled one's script was already under way);
    // `second` and `third` ran once each, after the second holder's attempt ended.
    const lines = await ledger(file);
    expect(lines.slice(0, 4).sort()).toEqual(['first end', 'first end', 'first start', 'first start']);
    expect(lines.slice(4)).toEqual(['second', 'third']);
    const actions = await db.pool.query<{
      name: string;
      status: string;
      retry_count: number;
      artifacts: number;
    }>(
      `SELECT a.name, a.status, a.retry_count,
              (SELECT count(*)::int FROM artifacts f WHERE f.playbook_run_action_id = a.id) AS artifacts
         FROM playbook_run_actions a WHERE a.playbook_run_id = $1 ORDER BY a.created_at`,
      [runId],
    );
    // The first action's outcome and artifacts (stdout, stderr) are the second holder's attempt only.
    expect(actions.rows).toEqual([
      { name: 'first', status: 'completed', retry_count: 1, artifacts: 2 },
      { name: 'second', status: 'completed', retry_count: 0, artifacts: 2 },
      { name: 'third', status: 'completed', retry_count: 0, artifacts: 2 },
    ]);
    const final = await db.pool.query<{ status: string; error: string | null }>(
      'SELECT status, error FROM playbook_runs WHERE id = $1',
      [runId],
    );
    expect(final.rows[0]).toEqual({ status: 'completed', error: null });
  }, 240_000);
});
