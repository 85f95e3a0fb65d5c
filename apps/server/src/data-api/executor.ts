/**
 * Stage 3: runs a finalized plan.
 *
 * Writes run in one transaction on the shared pool, bounded by SET LOCAL statement_timeout (so
 * it never leaks to the pool's other users) and committed only if the outcome allows it.
 * Reads run as one statement on the data API's read pool, whose connections start with
 * `statement_timeout` and `default_transaction_read_only=on`: one round trip, bounded, and
 * nothing reached through a GET can write.
 */
import pg from 'pg';
import type { ApiError } from './errors.js';

export interface BoundStatement {
  /** Runs as a named prepared statement on the read pool when set. */
  readonly name?: string;
  readonly text: string;
  readonly values: unknown[];
}

export interface ExecutionRequest {
  readonly readOnly: boolean;
  readonly statementTimeoutMs: number;
  readonly main: BoundStatement;
  readonly plannedCount: BoundStatement | null;
  /** Writes: set as the transaction-local `opsdeck.person_id` so triggers know who acted. */
  readonly actingPersonId?: string;
  /** Decides, from the statement's outcome, whether to commit; an error rolls back and is thrown. */
  readonly commitIf: (outcome: { page: number; violations: number }) => ApiError | null;
}

export interface ExecutionResult {
  readonly total: number | null;
  readonly plannedTotal: number | null;
  readonly page: number;
  readonly body: string | null;
  readonly violations: number;
  readonly location: string | null;
}

interface MainRow {
  total: string | number | null;
  page: string | number;
  body: string | null;
  violations?: string | number | null;
  location?: string | null;
}

const beginCache = new Map<string, string>();

function beginStatement(readOnly: boolean, timeoutMs: number): string {
  const key = `${readOnly}:${timeoutMs}`;
  let text = beginCache.get(key);
  if (!text) {
    const ms = Math.max(1, Math.floor(timeoutMs));
    // One round trip: both statements go in one simple-protocol message.
    text = `BEGIN ISOLATION LEVEL READ COMMITTED${readOnly ? ' READ ONLY' : ''}; SET LOCAL statement_timeout = ${ms}`;
    beginCache.set(key, text);
  }
  return text;
}

/** A pool like `pool` whose sessions are read-only and bounded by `statementTimeoutMs`. */
export function createReadPool(pool: pg.Pool, statementTimeoutMs: number): pg.Pool {
  const base = pool.options as pg.PoolConfig;
  const readOnly = '-c default_transaction_read_only=on';
  const read = new pg.Pool({
    ...base,
    statement_timeout: Math.max(1, Math.floor(statementTimeoutMs)),
    options: base.options ? `${base.options} ${readOnly}` : readOnly,
    // Half the shared pool's size: reads are short, and every replica's connections count.
    max: Math.max(2, Math.ceil((base.max ?? 10) / 2)),
    application_name: `${base.application_name ?? 'opsdeck'}-data-api`,
    // Sessions hold the prepared statements of the shapes they ran: renew them now and then.
    maxLifetimeSeconds: 600,
  });
  // An idle client losing its connection must not crash the process.
  read.on('error', () => undefined);
  return read;
}

function toResult(row: MainRow | undefined, plannedTotal: number | null): ExecutionResult {
  return {
    total: row?.total === null || row?.total === undefined ? null : Number(row.total),
    plannedTotal,
    page: row ? Number(row.page) : 0,
    body: row?.body ?? null,
    violations: row?.violations === null || row?.violations === undefined ? 0 : Number(row.violations),
    location: row?.location ?? null,
  };
}

export async function executePlan(
  pool: pg.Pool,
  request: ExecutionRequest,
  readPool: pg.Pool | null = null,
): Promise<ExecutionResult> {
  if (request.readOnly && readPool) {
    let plannedTotal: number | null = null;
    if (request.plannedCount) {
      const explained = await readPool.query<{ 'QUERY PLAN': unknown }>(request.plannedCount);
      plannedTotal = planRows(explained.rows[0]?.['QUERY PLAN']);
    }
    const main = await readPool.query<MainRow>(request.main);
    return toResult(main.rows[0], plannedTotal);
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(beginStatement(request.readOnly, request.statementTimeoutMs));
    let result: ExecutionResult;
    try {
      if (!request.readOnly && request.actingPersonId) {
        await client.query("SELECT set_config('opsdeck.person_id', $1, true)", [request.actingPersonId]);
      }
      let plannedTotal: number | null = null;
      if (request.plannedCount) {
        const explained = await client.query<{ 'QUERY PLAN': unknown }>(request.plannedCount);
        plannedTotal = planRows(explained.rows[0]?.['QUERY PLAN']);
      }
      // Unnamed on the shared pool: its sessions are not the data API's to fill with prepared statements.
      const main = await client.query<MainRow>({ text: request.main.text, values: request.main.values });
      result = toResult(main.rows[0], plannedTotal);
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    }
    const refusal = request.commitIf({ page: result.page, violations: result.violations });
    if (refusal) {
      await client.query('ROLLBACK');
      throw refusal;
    }
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!broken && !isDatabaseError(error) && !isApiError(error))
      broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

function isDatabaseError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { severity?: unknown }).severity === 'string'
  );
}

function isApiError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'ApiError';
}

interface PlanNode {
  'Node Type'?: string;
  'Plan Rows'?: number;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

/**
 * The estimated rows feeding the statement's LIMIT (EXPLAIN (FORMAT JSON) of the statement):
 * the first Limit node outside init plans and sub plans, its input's `Plan Rows`.
 */
function planRows(plan: unknown): number | null {
  const top = Array.isArray(plan) ? (plan[0] as { Plan?: PlanNode } | undefined)?.Plan : undefined;
  if (!top) return null;
  const queue: PlanNode[] = [top];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node['Node Type'] === 'Limit') {
      const input = node.Plans?.find((child) => child['Parent Relationship'] === 'Outer') ?? node.Plans?.[0];
      const rows = input?.['Plan Rows'];
      return typeof rows === 'number' ? rows : null;
    }
    for (const child of node.Plans ?? []) {
      if (child['Parent Relationship'] !== 'InitPlan' && child['Parent Relationship'] !== 'SubPlan')
        queue.push(child);
    }
  }
  return typeof top['Plan Rows'] === 'number' ? top['Plan Rows'] : null;
}
