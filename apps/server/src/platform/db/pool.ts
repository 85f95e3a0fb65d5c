import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

// Return int8 (bigint, count(*)) as numbers and keep numeric exact as text by default.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(
  connectionString: string,
  options: { max?: number; applicationName?: string } = {},
): Pool {
  const pool = new pg.Pool({
    connectionString,
    // No JIT compilation (docs/adr/0007-no-jit.md): our statements are short, and when the
    // planner overestimates one (a CTE it cannot see into), compiling it cost a second or more.
    options: '-c jit=off',
    max: options.max ?? 20,
    application_name: options.applicationName ?? 'opsdeck',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Runs `work` in a transaction on one client; rolls back on any error. `begin` is the statement
 * that opens it (say `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY` for one snapshot).
 */
export async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
