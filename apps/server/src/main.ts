import { buildApp } from './app.js';
import type { OpsdeckConfig } from './config.js';
import { openDatabase, type DatabaseHandle } from './platform/db/database.js';
import { runMigrations } from './platform/db/migrate.js';
import { createPool, type Pool } from './platform/db/pool.js';
import type { Logger } from './platform/logger.js';
import { createMetrics } from './platform/telemetry/metrics.js';
import { ensureFirstAdmin } from './modules/auth/bootstrap.js';
import {
  loadDemoResources,
  startResourceDirectoryWatcher,
  type ResourceDirectoryWatcher,
} from './modules/resources/index.js';
import { createSecretBox, loadSecretKey } from './platform/secrets.js';
import { startWorkers, type Workers } from './workers.js';

export interface RunningServer {
  url: string;
  /** Stops accepting requests, lets running work finish or releases it, closes the database. */
  stop(): Promise<void>;
}

/**
 * `opsdeck serve`: database (embedded or external), migrations, first admin, workers and the
 * HTTP server with the web app, on one port.
 */
export async function serve(config: OpsdeckConfig, logger: Logger): Promise<RunningServer> {
  const database: DatabaseHandle = await openDatabase(config, logger, 'server');
  let pool: Pool | undefined;
  let workers: Workers | undefined;
  let watcher: ResourceDirectoryWatcher | undefined;
  try {
    pool = createPool(database.url, { max: config.dbPoolSize });
    await runMigrations(pool, config.migrationsDir, logger);
    const admin = await ensureFirstAdmin(pool, config);
    if (admin?.generatedPassword) {
      process.stdout.write(
        `\nCreated the first admin account.\n  email:    ${admin.email}\n  password: ${admin.generatedPassword}\n` +
          'This password is shown only once. Set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own.\n\n',
      );
    } else if (admin) {
      logger.info({ email: admin.email }, 'created the first admin account');
    }
    const secretKey = await loadSecretKey(config);
    if (secretKey.source === 'generated' && database.kind === 'external') {
      logger.warn(
        { file: `${config.dataDir}/secret-key` },
        'generated a secret key in the data directory: set SECRET_KEY to the same value on every replica',
      );
    }
    const secrets = createSecretBox(secretKey.key);
    if (config.resourcesDir) {
      watcher = await startResourceDirectoryWatcher({ pool, dir: config.resourcesDir, logger, secrets });
    }
    const metrics = createMetrics(pool);
    workers = await startWorkers({ pool, config, logger, metrics, secrets });
    const { app, markShuttingDown } = await buildApp({
      config,
      pool,
      metrics,
      logger,
      secrets,
      jobs: workers.jobs,
    });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    if (config.demo) {
      // Loaded once listening, so that the demo's checks of this server use the port it really
      // has (PORT=0 picks a free one).
      await loadDemoResources(pool, config.demoDir, logger, {
        secrets,
        variables: { OPSDECK_PORT: String(port) },
      }).catch(async (error: unknown) => {
        await app.close().catch(() => undefined);
        throw error;
      });
    }
    const url = `http://localhost:${port}`;
    const where =
      database.kind === 'external'
        ? 'Database: the external PostgreSQL in DATABASE_URL'
        : `Data directory: ${config.dataDir} (embedded PostgreSQL)`;
    process.stdout.write(`Opsdeck is running at ${url}\n${where}\n`);
    logger.info(
      { url, dataDir: database.kind === 'external' ? undefined : config.dataDir },
      'opsdeck started',
    );

    const openPool = pool;
    const runningWorkers = workers;
    const runningWatcher = watcher;
    let stopping: Promise<void> | undefined;
    return {
      url,
      stop: () => {
        stopping ??= (async () => {
          markShuttingDown();
          logger.info('shutting down: no new work is accepted');
          await app.close();
          await runningWatcher?.stop();
          await runningWorkers.stop();
          await openPool.end();
          await database.close();
          logger.info('stopped');
        })();
        return stopping;
      },
    };
  } catch (error) {
    await watcher?.stop().catch(() => undefined);
    await workers?.stop().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}
