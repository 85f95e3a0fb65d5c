import { createHash } from 'node:crypto';
import {
  PLAYBOOK_RUN_FINAL_STATUSES,
  type PlaybookActionStatus,
  type PlaybookRunStatus,
} from '@opsdeck/contracts';
import { evaluateCel, renderTemplate } from '../../expressions/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { enqueueEvent, type JobsService, type Queryable } from '../../platform/jobs/index.js';
import { openSealedStrings, type Json } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import { ActionFailure, actionTypeOf, type ActionOutcome } from './actions/index.js';
import { DEFAULT_PLAYBOOK_TIMEOUT_MS, parseDurationMs, retryDelayMs } from './durations.js';

/** The internal event that moves a run forward; its consumer holds the run while it works. */
export const EXECUTE_EVENT = 'playbook.execute';

interface RunRow {
  id: string;
  playbook_id: string;
  status: PlaybookRunStatus;
  spec: Record<string, unknown> | null;
  parameters: Record<string, unknown> | null;
  request: Record<string, unknown> | null;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  start_time: Date | null;
  created_by: string | null;
}

interface ActionRow {
  id: string;
  name: string;
  status: PlaybookActionStatus;
  result: Record<string, unknown> | null;
  error: string | null;
  retry_count: number;
  scheduled_time: Date;
  start_time: Date | null;
}

type ActionSpec = Record<string, unknown> & { name: string };

export interface RunnerDeps {
  pool: Pool;
  jobs: Pick<JobsService, 'startJob'>;
  secrets?: SecretBox;
  /** How often a running action looks for a cancel. Default 500 ms. */
  cancelPollMs?: number;
  /** The process's one cancel watch (one query per interval for all its running actions). */
  cancels?: CancelWatch;
  /** The process's gate that lets runs start before started runs take their next action. */
  starts?: StartGate;
}

/**
 * This process no longer holds the run: it stalled past its queue lease and another process took
 * the run over (ADR 0042). The run is the other process's now; this one stops without writing.
 */
export class LostHold extends Error {
  constructor(runId: string) {
    super(`playbook run ${runId} was taken over by another process`);
  }
}

/** The process's hold on a run: the holder it wrote to playbook_run_holders when it took it. */
interface Hold {
  runId: string;
  holder: string;
}

/** SQL: the hold with the given parameters is still the run's (locked so a takeover waits for the write). */
const held = (run: number, holder: number) =>
  `EXISTS (SELECT 1 FROM playbook_run_holders h WHERE h.run_id = $${run} AND h.holder = $${holder} FOR SHARE)`;

/**
 * Starts before continuations (ADR 0042): while any run handled by this process is on its way to
 * its first action, the runs already started wait before claiming their next action (at most
 * maxWaitMs), so a burst of new runs does not queue behind the database and process traffic of
 * the actions of the runs started just before them.
 */
export class StartGate {
  private starting = 0;
  private waiters = new Set<() => void>();

  constructor(private readonly maxWaitMs = 2000) {}

  /** A run begins starting; the answer (idempotent) says it reached its first action or gave up. */
  enter(): () => void {
    this.starting += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.starting -= 1;
      if (this.starting === 0) {
        const waiters = [...this.waiters];
        this.waiters.clear();
        waiters.forEach((resolve) => resolve());
      }
    };
  }

  /** Resolves once no run is starting, or after maxWaitMs. */
  idle(): Promise<void> {
    if (this.starting === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.maxWaitMs);
      this.waiters.add(done);
    });
  }
}

/**
 * Looks for cancelled runs among those whose actions run in this process: one query per
 * interval however many actions run, instead of one per action.
 */
export class CancelWatch {
  private readonly watched = new Map<string, Set<() => void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly pool: Pool,
    private readonly intervalMs = 500,
  ) {}

  /** Calls onCancel once when the run is cancelled; the answer stops watching. */
  watch(runId: string, onCancel: () => void): () => void {
    let callbacks = this.watched.get(runId);
    if (!callbacks) this.watched.set(runId, (callbacks = new Set()));
    callbacks.add(onCancel);
    this.timer ??= setInterval(() => void this.poll(), this.intervalMs);
    return () => {
      callbacks.delete(onCancel);
      if (callbacks.size === 0) this.watched.delete(runId);
      if (this.watched.size === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling || this.watched.size === 0) return;
    this.polling = true;
    try {
      const { rows } = await this.pool.query<{ id: string }>(
        `SELECT id FROM playbook_runs WHERE id = ANY($1::uuid[]) AND status = 'cancelled'`,
        [[...this.watched.keys()]],
      );
      for (const { id } of rows) {
        const callbacks = this.watched.get(id);
        this.watched.delete(id);
        callbacks?.forEach((callback) => callback());
      }
    } catch {
      // The next interval looks again.
    } finally {
      this.polling = false;
    }
  }
}

/** Starts (or continues) a run in the queue, in the caller's transaction when given one. */
export function scheduleRun(db: Queryable, runId: string, delayMs = 0): Promise<string> {
  return enqueueEvent(db, EXECUTE_EVENT, { run_id: runId }, { delayMs });
}

/** Sets a run's status and emits `playbook.run.<status>` for the notifications module. */
export async function setRunStatus(
  db: Queryable,
  runId: string,
  status: PlaybookRunStatus,
  fields: { error?: string | null; start?: boolean; hold?: Hold } = {},
): Promise<void> {
  const final = PLAYBOOK_RUN_FINAL_STATUSES.includes(status);
  const { rows } = await db.query<{ playbook_id: string; previous: string }>(
    `UPDATE playbook_runs r SET status = $2,
            error = CASE WHEN $3::boolean THEN $4 ELSE r.error END,
            start_time = CASE WHEN $5::boolean THEN coalesce(r.start_time, now()) ELSE r.start_time END,
            end_time = CASE WHEN $6::boolean THEN now() ELSE r.end_time END
      FROM (SELECT id, status AS previous FROM playbook_runs WHERE id = $1 FOR UPDATE) p
      WHERE r.id = p.id AND ($7::uuid IS NULL OR ${held(1, 7)})
      RETURNING r.playbook_id, p.previous`,
    [
      runId,
      status,
      fields.error !== undefined,
      fields.error ?? null,
      fields.start === true,
      final,
      fields.hold?.holder ?? null,
    ],
  );
  const row = rows[0];
  if (!row && fields.hold) throw new LostHold(runId);
  if (row && row.previous !== status) {
    await enqueueEvent(db, `playbook.run.${status}`, { id: runId, playbook_id: row.playbook_id, status });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Renders `{{ }}` Go templates in every string of an action spec. */
function renderDeep(value: unknown, variables: Record<string, unknown>): unknown {
  if (typeof value === 'string') return value.includes('{{') ? renderTemplate(value, variables) : value;
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, variables));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderDeep(item, variables)]));
  }
  return value;
}

/**
 * An action's `if` (CEL): `success()` (no earlier action failed; the default), `failure()` (one
 * did), `always()`, `skip()`, and `getAction('name')` of an earlier one; a Go template when it
 * holds `{{`. True runs the action.
 */
export function shouldRun(
  condition: unknown,
  previous: readonly ActionRow[],
  variables: Record<string, unknown>,
): boolean {
  const failed = previous.some((action) => action.status === 'failed');
  const text = typeof condition === 'string' ? condition.trim() : '';
  if (text === '') return !failed;
  if (text.includes('{{')) return renderTemplate(text, variables).trim() === 'true';
  const actions = Object.fromEntries(
    previous.map((action) => [
      action.name,
      { status: action.status, result: action.result ?? {}, error: action.error ?? '' },
    ]),
  );
  const source = text
    .replace(/\bsuccess\(\)/g, '__success')
    .replace(/\bfailure\(\)/g, '__failure')
    .replace(/\balways\(\)/g, 'true')
    .replace(/\bskip\(\)/g, 'false')
    .replace(
      /\bgetAction\(\s*(['"])([^'"]*)\1\s*\)/g,
      (_match, _quote, name: string) => `__actions[${JSON.stringify(name)}]`,
    );
  const value = evaluateCel(source, {
    ...variables,
    __success: !failed,
    __failure: failed,
    __actions: actions,
  });
  return value === true || value === 'true';
}

async function loadContext(pool: Pool, run: RunRow): Promise<Record<string, unknown>> {
  const one = async (sql: string, id: string | null) =>
    id ? ((await pool.query<{ row: unknown }>(sql, [id])).rows[0]?.row ?? null) : null;
  const [config, component, check, user] = await Promise.all([
    one(
      `SELECT jsonb_build_object('id', id, 'name', name, 'type', type, 'config_class', config_class,
              'tags', tags, 'labels', labels, 'config', config, 'status', status, 'health', health) AS row
         FROM config_items WHERE id = $1`,
      run.config_id,
    ),
    one(
      `SELECT jsonb_build_object('id', id, 'name', name, 'type', type, 'namespace', namespace,
              'labels', labels, 'status', status, 'health', health) AS row FROM components WHERE id = $1`,
      run.component_id,
    ),
    one(
      `SELECT jsonb_build_object('id', id, 'name', name, 'type', type, 'namespace', namespace,
              'labels', labels, 'status', status) AS row FROM checks WHERE id = $1`,
      run.check_id,
    ),
    one(
      `SELECT jsonb_build_object('id', id, 'name', name, 'email', email) AS row FROM people WHERE id = $1`,
      run.created_by,
    ),
  ]);
  const variables: Record<string, unknown> = {
    config,
    component,
    check,
    user,
    params: run.parameters ?? {},
    run: { id: run.id, playbook_id: run.playbook_id, request: run.request ?? {} },
    request: run.request ?? {},
  };
  const env: Record<string, string> = {};
  const specEnv = run.spec?.env;
  if (Array.isArray(specEnv)) {
    for (const entry of specEnv as { name?: unknown; value?: unknown }[]) {
      if (typeof entry?.name === 'string') {
        const raw = entry.value === undefined || entry.value === null ? '' : String(entry.value);
        env[entry.name] = raw.includes('{{') ? renderTemplate(raw, variables) : raw;
      }
    }
  }
  variables.env = env;
  return variables;
}

async function storeArtifacts(
  pool: Pool,
  hold: Hold,
  actionId: string,
  outcome: ActionOutcome | undefined,
): Promise<void> {
  const { runId } = hold;
  for (const artifact of outcome?.artifacts ?? []) {
    const checksum = createHash('sha256').update(artifact.content).digest('hex');
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO artifacts (playbook_run_id, playbook_run_action_id, path, filename, content_type, size, checksum)
       SELECT $1, $2, $3, $4, $5, $6, $7 WHERE ${held(1, 8)} RETURNING id`,
      [
        runId,
        actionId,
        `playbooks/${runId}/${actionId}/${artifact.filename}`,
        artifact.filename,
        artifact.contentType,
        artifact.content.length,
        checksum,
        hold.holder,
      ],
    );
    if (!rows[0]) throw new LostHold(runId);
    await pool.query('INSERT INTO artifact_contents (artifact_id, content) VALUES ($1, $2)', [
      rows[0].id,
      artifact.content,
    ]);
  }
}

async function currentStatus(pool: Pool, runId: string): Promise<PlaybookRunStatus | undefined> {
  const { rows } = await pool.query<{ status: PlaybookRunStatus }>(
    'SELECT status FROM playbook_runs WHERE id = $1',
    [runId],
  );
  return rows[0]?.status;
}

interface TakenRow extends RunRow {
  holder: string;
  /** The run's status before this take moved it to running. */
  previous: PlaybookRunStatus;
  previous_start: Date | null;
}

/**
 * Takes the run for this process in one statement (ADR 0042): writes a fresh holder (a process
 * that held it before stalled past its lease and loses it here), moves the run to running and
 * answers the run as it was. Undefined when the run is final, cancelled meanwhile or waiting for
 * approval.
 */
async function takeRun(pool: Pool, runId: string): Promise<TakenRow | undefined> {
  const waiting = [...PLAYBOOK_RUN_FINAL_STATUSES, 'pending_approval'];
  const { rows } = await pool.query<TakenRow>(
    `WITH taken AS (
       INSERT INTO playbook_run_holders (run_id, holder)
       SELECT id, gen_random_uuid() FROM playbook_runs WHERE id = $1 AND status <> ALL($2::text[])
       ON CONFLICT (run_id) DO UPDATE SET holder = excluded.holder, taken_at = now()
       RETURNING run_id, holder
     ), moved AS (
       UPDATE playbook_runs r SET status = 'running', start_time = coalesce(r.start_time, now())
         FROM taken WHERE r.id = taken.run_id AND r.status <> ALL($2::text[])
       RETURNING r.id, r.start_time
     )
     SELECT r.id, r.playbook_id, r.status AS previous, r.start_time AS previous_start, m.start_time,
            r.spec, r.parameters, r.request, r.config_id, r.component_id, r.check_id, r.created_by,
            'running' AS status, t.holder
       FROM playbook_runs r JOIN taken t ON t.run_id = r.id JOIN moved m ON m.id = r.id`,
    [runId, waiting],
  );
  return rows[0];
}

/**
 * Moves one run forward as far as it can go now: each action in order (skipped by its `if`,
 * put to sleep by its `delay`, retried with backoff), then the run's final status. The event
 * queue's lease makes this the only process working on the run; a lease that another process
 * took over after a crash finds the interrupted action still `running` and retries or fails it.
 * Every claim and write checks this process still holds the run (ADR 0042): one that stalled past
 * its lease and was replaced stops at its next write, leaving the run to the new holder.
 */
export async function advanceRun(deps: RunnerDeps, runId: string, signal: AbortSignal): Promise<void> {
  const started = deps.starts?.enter() ?? (() => undefined);
  try {
    const taken = await takeRun(deps.pool, runId);
    if (!taken) return;
    const hold: Hold = { runId, holder: taken.holder };
    try {
      await proceed(deps, taken, hold, signal, started);
    } catch (error) {
      if (error instanceof LostHold) return;
      if (signal.aborted) throw error;
      // An unexpected error fails the run (when this process still holds it) rather than
      // retrying it without end.
      await setRunStatus(deps.pool, runId, 'failed', { error: errorText(error), hold }).catch(
        (failure: unknown) => {
          if (!(failure instanceof LostHold)) throw failure;
        },
      );
    }
  } finally {
    started();
  }
}

async function proceed(
  deps: RunnerDeps,
  taken: TakenRow,
  hold: Hold,
  signal: AbortSignal,
  started: () => void,
): Promise<void> {
  const { pool } = deps;
  const runId = taken.id;
  // Sealed secrets of the spec (action passwords) and of secret parameters, opened for this run only.
  const run: RunRow = {
    ...taken,
    spec: openSealedStrings(taken.spec as Json, deps.secrets) as RunRow['spec'],
    parameters: openSealedStrings(taken.parameters as Json, deps.secrets) as RunRow['parameters'],
  };
  const spec = run.spec ?? {};
  const timeoutMs = parseDurationMs(spec.timeout) ?? DEFAULT_PLAYBOOK_TIMEOUT_MS;
  const startedAt = run.start_time ?? new Date();
  const deadline = startedAt.getTime() + timeoutMs;
  const timedOut = () =>
    setRunStatus(pool, runId, 'timed_out', {
      error: `the playbook timed out after ${spec.timeout ?? '30m'}`,
      hold,
    });
  if (Date.now() >= deadline) return timedOut();
  // A run that never started has no action rows yet (its take set start_time, so a later
  // holder reads them).
  const fresh = taken.previous === 'scheduled' && taken.previous_start === null;
  const [variables, existing] = await Promise.all([
    loadContext(pool, run).catch((error: unknown) => error as Error),
    fresh
      ? Promise.resolve([] as ActionRow[])
      : pool
          .query<ActionRow>(
            `SELECT id, name, status, result, error, retry_count, scheduled_time, start_time
               FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY created_at`,
            [runId],
          )
          .then((result) => result.rows),
    // The take moved the run to running; the notifications module hears of it.
    taken.previous === 'running'
      ? undefined
      : enqueueEvent(pool, 'playbook.run.running', {
          id: runId,
          playbook_id: taken.playbook_id,
          status: 'running',
        }),
  ]);
  if (variables instanceof Error) {
    await setRunStatus(pool, runId, 'failed', { error: errorText(variables), hold });
    return;
  }
  const actions = (Array.isArray(spec.actions) ? spec.actions : []) as ActionSpec[];
  const done: ActionRow[] = [];
  let first = true;
  for (const action of actions) {
    let row = existing.find((candidate) => candidate.name === action.name);
    if (row && (row.status === 'completed' || row.status === 'failed' || row.status === 'skipped')) {
      done.push(row);
      continue;
    }
    // Runs on their way to their first action go first (StartGate).
    if (!first) await deps.starts?.idle();
    const retry = (action.retry ?? {}) as {
      limit?: unknown;
      duration?: unknown;
      exponent?: unknown;
      jitter?: unknown;
    };
    const retryLimit = Number(retry.limit ?? 0) || 0;
    if (row && row.status === 'running') {
      // The process running it stopped: retry it while the budget allows, else fail it.
      const message = 'the process running this action stopped before it finished';
      if (row.retry_count < retryLimit) {
        await scheduleRetry(deps, hold, row, retry, message);
        return;
      }
      const marked = await pool.query(
        `UPDATE playbook_run_actions SET status = 'failed', error = $2, end_time = now()
          WHERE id = $1 AND status = 'running' AND ${held(3, 4)}`,
        [row.id, message, runId, hold.holder],
      );
      if (marked.rowCount === 0) return;
      done.push({ ...row, status: 'failed', error: message });
      continue;
    }
    if (row && row.scheduled_time.getTime() > Date.now() + 50) {
      await scheduleRun(pool, runId, row.scheduled_time.getTime() - Date.now());
      return;
    }
    const actionVariables = { ...variables, action: { name: action.name } };
    let run_it: boolean;
    try {
      run_it = shouldRun(action.if, done, actionVariables);
    } catch (error) {
      const message = `if: ${errorText(error)}`;
      row = await upsertAction(pool, hold, row, action.name, 'failed', { error: message });
      if (!row) return;
      done.push(row);
      continue;
    }
    if (!run_it) {
      row = await upsertAction(pool, hold, row, action.name, 'skipped', {});
      if (!row) return;
      done.push(row);
      continue;
    }
    const delayMs = parseDurationMs(action.delay);
    if (!row && delayMs && delayMs > 0) {
      const slept = await pool.query(
        `INSERT INTO playbook_run_actions (playbook_run_id, name, status, scheduled_time)
         SELECT $1, $2, 'sleeping', now() + $3 * interval '1 millisecond' WHERE ${held(1, 4)}
         ON CONFLICT (playbook_run_id, name) DO NOTHING`,
        [runId, action.name, delayMs, hold.holder],
      );
      if (slept.rowCount === 0) return;
      await setRunStatus(pool, runId, 'sleeping', { hold });
      await scheduleRun(pool, runId, delayMs);
      return;
    }
    // The claim: only the process whose statement moved the action to running runs it, and only
    // while it holds the run.
    row = await upsertAction(pool, hold, row, action.name, 'running', {
      start: true,
    });
    first = false;
    started();
    if (!row) return;
    const outcome = await executeAction(deps, hold, row, action, actionVariables, deadline, signal);
    if (outcome.cancelled) return;
    if (outcome.error !== undefined) {
      if (row.retry_count < retryLimit && !outcome.timedOutRun) {
        await scheduleRetry(deps, hold, row, retry, outcome.error);
        return;
      }
      await finishAction(pool, hold, row.id, 'failed', outcome.error, outcome.result ?? null);
      if (outcome.timedOutRun) return timedOut();
      done.push({ ...row, status: 'failed', error: outcome.error, result: outcome.result ?? null });
      continue;
    }
    await finishAction(pool, hold, row.id, 'completed', null, outcome.result ?? {});
    done.push({ ...row, status: 'completed', result: outcome.result ?? {} });
  }
  started();
  const failed = done.filter((action) => action.status === 'failed');
  if (failed.length > 0) {
    await setRunStatus(pool, runId, 'failed', {
      error: failed.map((action) => `${action.name}: ${action.error ?? 'failed'}`).join('; '),
      hold,
    });
  } else {
    await setRunStatus(pool, runId, 'completed', { error: null, hold });
  }
}

/** Writes a running action's outcome, only while this process holds the run (else LostHold). */
async function finishAction(
  pool: Pool,
  hold: Hold,
  actionId: string,
  status: 'completed' | 'failed',
  error: string | null,
  result: Record<string, unknown> | null,
): Promise<void> {
  const { rowCount } = await pool.query(
    `UPDATE playbook_run_actions SET status = $2, error = $3, result = $4, end_time = now()
      WHERE id = $1 AND status = 'running' AND ${held(5, 6)}`,
    [actionId, status, error, result, hold.runId, hold.holder],
  );
  if (rowCount === 0) throw new LostHold(hold.runId);
}

/**
 * Moves an action to `status`: inserts its row, or updates the row as this process read it.
 * Undefined when another process got there first (the row exists, or moved meanwhile) or took
 * the run over: the caller leaves the run to it. This compare-and-set is what runs each action once.
 */
async function upsertAction(
  pool: Pool,
  hold: Hold,
  row: ActionRow | undefined,
  name: string,
  status: PlaybookActionStatus,
  fields: { error?: string; start?: boolean },
): Promise<ActionRow | undefined> {
  const final = status === 'completed' || status === 'failed' || status === 'skipped';
  const columns = 'id, name, status, result, error, retry_count, scheduled_time, start_time';
  if (row) {
    const { rows } = await pool.query<ActionRow>(
      `UPDATE playbook_run_actions SET status = $2, error = $3,
              start_time = CASE WHEN $4::boolean THEN now() ELSE start_time END,
              end_time = CASE WHEN $5::boolean THEN now() ELSE NULL END
        WHERE id = $1 AND status = $6 AND ${held(7, 8)} RETURNING ${columns}`,
      [
        row.id,
        status,
        fields.error ?? null,
        fields.start === true,
        final,
        row.status,
        hold.runId,
        hold.holder,
      ],
    );
    return rows[0];
  }
  const { rows } = await pool.query<ActionRow>(
    `INSERT INTO playbook_run_actions (playbook_run_id, name, status, error, start_time, end_time)
     SELECT $1, $2, $3, $4, CASE WHEN $5::boolean THEN now() END, CASE WHEN $6::boolean THEN now() END
      WHERE ${held(1, 7)}
     ON CONFLICT (playbook_run_id, name) DO NOTHING
     RETURNING ${columns}`,
    [hold.runId, name, status, fields.error ?? null, fields.start === true, final, hold.holder],
  );
  return rows[0];
}

async function scheduleRetry(
  deps: RunnerDeps,
  hold: Hold,
  row: ActionRow,
  retry: { duration?: unknown; exponent?: unknown; jitter?: unknown },
  error: string,
): Promise<void> {
  const attempt = row.retry_count + 1;
  const delayMs = retryDelayMs(retry, attempt);
  const { rowCount } = await deps.pool.query(
    `UPDATE playbook_run_actions SET status = 'scheduled', error = $2, retry_count = $3,
            scheduled_time = now() + $4 * interval '1 millisecond', end_time = NULL
      WHERE id = $1 AND status = 'running' AND ${held(5, 6)}`,
    [row.id, error, attempt, delayMs, hold.runId, hold.holder],
  );
  if (rowCount === 0) return;
  await setRunStatus(deps.pool, hold.runId, 'retrying', { hold });
  await scheduleRun(deps.pool, hold.runId, delayMs);
}

interface ExecutionOutcome {
  result?: Record<string, unknown>;
  error?: string;
  cancelled?: boolean;
  timedOutRun?: boolean;
}

function idOf(row: unknown): string | undefined {
  const id = row && typeof row === 'object' ? (row as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

async function executeAction(
  deps: RunnerDeps,
  hold: Hold,
  row: ActionRow,
  action: ActionSpec,
  variables: Record<string, unknown>,
  deadline: number,
  outer: AbortSignal,
): Promise<ExecutionOutcome> {
  const { pool } = deps;
  const { runId } = hold;
  const job = await deps.jobs.startJob({
    name: `playbook action ${action.name}`,
    resourceType: 'playbook',
    resourceId: String(variables.run && (variables.run as { playbook_id: string }).playbook_id),
  });
  const controller = new AbortController();
  const onOuter = () => controller.abort(String(outer.reason ?? 'the process is stopping'));
  outer.addEventListener('abort', onOuter);
  let cancelled = false;
  const onCancel = () => {
    cancelled = true;
    controller.abort('cancelled');
  };
  const ownWatch = deps.cancels ? undefined : new CancelWatch(pool, deps.cancelPollMs ?? 500);
  const unwatch = (deps.cancels ?? ownWatch)!.watch(runId, onCancel);
  const leftMs = deadline - Date.now();
  const actionTimeoutMs = parseDurationMs(action.timeout);
  const timeoutMs = Math.max(1, Math.min(leftMs, actionTimeoutMs ?? leftMs));
  const runTimeoutBinds = actionTimeoutMs === undefined || leftMs <= actionTimeoutMs;
  let outcome: ExecutionOutcome;
  let artifacts: ActionOutcome | undefined;
  try {
    const typed = actionTypeOf(action);
    if ('error' in typed) throw new ActionFailure(typed.error);
    const rendered = renderDeep(typed.spec, variables) as Record<string, unknown>;
    const result = await typed.type.run(rendered, {
      signal: controller.signal,
      timeoutMs,
      env: (variables.env as Record<string, string>) ?? {},
      pool,
      secrets: deps.secrets,
      playbookId: (variables.run as { playbook_id?: string } | undefined)?.playbook_id,
      resource: {
        componentId: idOf(variables.component),
        configId: idOf(variables.config),
        checkId: idOf(variables.check),
      },
    });
    artifacts = result;
    outcome = { result: result.result };
  } catch (error) {
    artifacts = error instanceof ActionFailure ? error.outcome : undefined;
    outcome = { error: errorText(error), result: artifacts?.result };
    if (!cancelled && Date.now() >= deadline - 5 && runTimeoutBinds) outcome.timedOutRun = true;
  } finally {
    unwatch();
    ownWatch?.stop();
    outer.removeEventListener('abort', onOuter);
  }
  try {
    await storeArtifacts(pool, hold, row.id, artifacts);
  } catch (error) {
    if (error instanceof LostHold) {
      // Another process took the run over while this one stalled: its outcome is the new holder's.
      await job.stopped('another process took the run over');
      throw error;
    }
  }
  if (cancelled || (await currentStatus(pool, runId)) === 'cancelled') {
    await pool.query(
      `UPDATE playbook_run_actions SET status = 'failed', error = 'cancelled', result = $2, end_time = now()
        WHERE id = $1 AND ${held(3, 4)}`,
      [row.id, outcome.result ?? null, runId, hold.holder],
    );
    await job.failure('cancelled');
    return { cancelled: true };
  }
  if (outer.aborted && outcome.error !== undefined) {
    // This process is stopping: leave the action running for the next process to retry or fail.
    await job.stopped('the process stopped');
    throw new Error('stopping');
  }
  if (outcome.error !== undefined) await job.failure(outcome.error);
  else {
    job.incrementSuccess();
    await job.success();
  }
  return outcome;
}
