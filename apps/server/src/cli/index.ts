import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../platform/config.js';
import { openDatabase } from '../platform/db/database.js';
import { MigrationError, runMigrations } from '../platform/db/migrate.js';
import { createPool } from '../platform/db/pool.js';
import { InstanceLockedError } from '../platform/instance-lock.js';
import { createLogger } from '../platform/logger.js';
import { OPSDECK_VERSION } from '../platform/version.js';
import { serve } from '../main.js';

const HELP = `Opsdeck ${OPSDECK_VERSION}: a self-hosted operations console.

Usage: opsdeck <command> [options]

Commands:
  serve      Start the API, the workers and the web app on one port (what npm start runs)
  migrate    Apply pending database migrations and exit
  help       Show this help

Options:
  -h, --help      Show this help
  -v, --version   Print the version

Configuration comes from environment variables (see the README): PORT (default 8080),
DATABASE_URL (external PostgreSQL; without it an embedded PostgreSQL runs in DATA_DIR),
DATA_DIR (default .data/ in the checkout), ADMIN_EMAIL, ADMIN_PASSWORD, DEMO, LOG_LEVEL.
Commands other than serve work whether or not a server is running on the same data directory.
`;

class UsageError extends Error {}

async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config, logger, 'cli');
  const pool = createPool(database.url, { max: 2, applicationName: 'opsdeck-cli' });
  try {
    const { applied } = await runMigrations(pool, config.migrationsDir);
    process.stdout.write(
      applied.length === 0
        ? 'The database is up to date.\n'
        : `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}\n`).join('')}`,
    );
  } finally {
    await pool.end();
    await database.close();
  }
}

async function serveCommand(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const server = await serve(config, logger);
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      process.stderr.write(`Received ${signal} again: exiting now.\n`);
      process.exit(130);
    }
    process.stderr.write(`Received ${signal}: stopping (press Ctrl-C again to force).\n`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
    });
    const command = positionals[0];
    if (values.version) {
      process.stdout.write(`${OPSDECK_VERSION}\n`);
      return 0;
    }
    if (values.help || command === undefined || command === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    if (positionals.length > 1)
      throw new UsageError(`Unexpected argument "${positionals[1]}" for ${command}`);
    switch (command) {
      case 'serve':
        await serveCommand();
        return -1; // keeps running until a signal
      case 'migrate':
        await migrateCommand();
        return 0;
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`opsdeck: ${(error as Error).message}\nRun "opsdeck --help" for usage.\n`);
      return 2;
    }
    if (
      error instanceof ConfigError ||
      error instanceof InstanceLockedError ||
      error instanceof MigrationError
    ) {
      process.stderr.write(`opsdeck: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`opsdeck: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
