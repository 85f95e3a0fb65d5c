// Startup cost (issue 22): each command imports only what it needs, when it runs, so `--help`
// loads this file and the version, and no command loads the server it does not start.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { PlatformConfig } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import type { Pool } from '../platform/db/pool.js';

/**
 * The root package.json's version, as platform/version.ts reads it, without importing the
 * platform config (and zod) for `--help`: src/cli and dist/cli are both four levels down.
 */
const OPSDECK_VERSION = (
  JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const HELP = `Opsdeck ${OPSDECK_VERSION}: a self-hosted operations console.

Usage: opsdeck <command> [options]

Commands:
  serve                    Start the API, the workers and the web app on one port (what npm start runs)
  migrate                  Apply pending database migrations and exit
  apply -f FILE|DIR …      Create or update resources from YAML (Canary, ScrapeConfig, Playbook, …);
                           --force takes over resources another source (UI, another file) owns
  get KIND                 List resources of a kind (e.g. opsdeck get canaries)
  token create --user EMAIL --name NAME [--scope OBJECT:ACTION …] [--expiry never|30d]
                           Print a new API token for an existing user (for automation)
  help                     Show this help

Options:
  -h, --help      Show this help
  -v, --version   Print the version

Configuration comes from environment variables (see the README): PORT (default 8080),
DATABASE_URL (external PostgreSQL; without it an embedded PostgreSQL runs in DATA_DIR),
DATA_DIR (default .data/ in the checkout), ADMIN_EMAIL, ADMIN_PASSWORD, DEMO, LOG_LEVEL.
Commands other than serve work whether or not a server is running on the same data directory,
and say on stderr which database they used. Only serve and migrate create a new database: the
others refuse when DATA_DIR holds none (set DATA_DIR or DATABASE_URL to your server's).
`;

class UsageError extends Error {}

/**
 * Runs a command against the configured database (attaching to a running server's embedded
 * PostgreSQL when there is one), with migrations applied first, and says on stderr which
 * database that was. Only `createEmbedded` commands (migrate) may initialise a new embedded
 * database: for the others an empty data directory is a mistake (a DATA_DIR other than the
 * server's), not a database to create.
 */
async function withDatabase<T>(
  work: (pool: Pool, context: { config: PlatformConfig; logger: Logger; applied: string[] }) => Promise<T>,
  options: { createEmbedded?: boolean } = {},
): Promise<T> {
  // The platform's settings only: no command but serve needs the modules' (auth) configuration.
  const [{ loadPlatformConfig }, { openDatabase }, { runMigrations }, { createPool }, { createLogger }] =
    await Promise.all([
      import('../platform/config.js'),
      import('../platform/db/database.js'),
      import('../platform/db/migrate.js'),
      import('../platform/db/pool.js'),
      import('../platform/logger.js'),
    ]);
  const config = loadPlatformConfig();
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const database = await openDatabase(config, logger, 'cli', {
    createEmbedded: options.createEmbedded ?? false,
  });
  process.stderr.write(`Database: ${database.description}\n`);
  const pool = createPool(database.url, { max: 2, applicationName: 'opsdeck-cli' });
  try {
    const { applied } = await runMigrations(pool, config.migrationsDir);
    return await work(pool, { config, logger, applied });
  } finally {
    await pool.end();
    await database.close();
  }
}

async function migrateCommand(): Promise<number> {
  return withDatabase(
    async (_pool, { applied }) => {
      process.stdout.write(
        applied.length === 0
          ? 'The database is up to date.\n'
          : `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}\n`).join('')}`,
      );
      return 0;
    },
    { createEmbedded: true },
  );
}

/**
 * Registers the resource kinds a command needs: those named (the kinds `apply`'s files declare),
 * or every kind when a name is unknown or none is given.
 */
async function loadKinds(kindNames?: readonly string[]): Promise<void> {
  const { registerCliKinds } = await import('./kinds.js');
  await registerCliKinds(kindNames);
}

/**
 * The `kind` of every document in the files apply was given, or undefined when one cannot be
 * told (a file that does not read or parse, a document without a kind): then every kind is
 * loaded, and apply reports the problem as it would anyway.
 */
async function documentKinds(paths: readonly string[]): Promise<string[] | undefined> {
  const { collectResourceFiles, readResourceFile } = await import('../modules/resources/resource-files.js');
  try {
    const { files } = await collectResourceFiles(paths);
    const kinds = new Set<string>();
    for (const file of files) {
      for (const document of await readResourceFile(file)) {
        const kind = (document.content as { kind?: unknown } | null | undefined)?.kind;
        if (document.yamlErrors.length > 0 || typeof kind !== 'string') return undefined;
        kinds.add(kind);
      }
    }
    return [...kinds];
  } catch {
    return undefined;
  }
}

async function loadModules(): Promise<void> {
  await import('../modules.js');
}

async function serveCommand(): Promise<void> {
  await loadModules();
  const [{ loadConfig }, { createLogger }, { serve }] = await Promise.all([
    import('../config.js'),
    import('../platform/logger.js'),
    import('../main.js'),
  ]);
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

/** Errors said in one line, without a stack (their modules are loaded by then, if they can occur). */
async function isExpectedError(error: unknown): Promise<boolean> {
  const [{ ConfigError }, { InstanceLockedError }, { NoDatabaseError }, { MigrationError }] =
    await Promise.all([
      import('../platform/config.js'),
      import('../platform/instance-lock.js'),
      import('../platform/db/database.js'),
      import('../platform/db/migrate.js'),
    ]);
  return (
    error instanceof ConfigError ||
    error instanceof InstanceLockedError ||
    error instanceof NoDatabaseError ||
    error instanceof MigrationError
  );
}

export async function runCli(argv: string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        file: { type: 'string', short: 'f', multiple: true },
        force: { type: 'boolean' },
        user: { type: 'string' },
        name: { type: 'string' },
        scope: { type: 'string', multiple: true },
        expiry: { type: 'string' },
      },
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
    const expectedPositionals = command === 'get' || command === 'token' ? 2 : 1;
    if (positionals.length > expectedPositionals) {
      throw new UsageError(`Unexpected argument "${positionals[expectedPositionals]}" for ${command}`);
    }
    if ((values.file || values.force) && command !== 'apply') {
      throw new UsageError(`-f and --force belong to apply, not ${command}`);
    }
    if ((values.user || values.name || values.scope || values.expiry) && command !== 'token') {
      throw new UsageError(`--user, --name, --scope and --expiry belong to token create, not ${command}`);
    }
    switch (command) {
      case 'serve':
        await serveCommand();
        return -1; // keeps running until a signal
      case 'migrate':
        return await migrateCommand();
      case 'apply': {
        const files = values.file ?? [];
        if (files.length === 0) throw new UsageError('apply needs at least one -f FILE|DIR');
        await loadKinds(await documentKinds(files));
        const [{ applyCommand }, { createSecretBox, loadSecretKey }] = await Promise.all([
          import('../modules/resources/cli-commands.js'),
          import('../platform/secrets.js'),
        ]);
        return await withDatabase(async (pool, { config }) => {
          const secrets = createSecretBox((await loadSecretKey(config)).key);
          return applyCommand(pool, files, process.stdout, { force: values.force ?? false, secrets });
        });
      }
      case 'get': {
        const kind = positionals[1];
        if (!kind) throw new UsageError('get needs a kind, e.g. opsdeck get canaries');
        await loadKinds();
        const { getCommand } = await import('../modules/resources/cli-commands.js');
        return await withDatabase((pool) => getCommand(pool, kind, process.stdout));
      }
      case 'token': {
        if (positionals[1] !== 'create')
          throw new UsageError('Usage: opsdeck token create --user EMAIL --name NAME');
        if (!values.user) throw new UsageError('token create needs --user EMAIL');
        if (!values.name) throw new UsageError('token create needs --name NAME');
        const { user, name, scope, expiry } = values;
        await loadModules();
        const { createTokenForUser, TokenInputError } = await import('../modules/auth/index.js');
        return await withDatabase(async (pool) => {
          try {
            const token = await createTokenForUser(pool, { email: user, name, scopes: scope ?? [], expiry });
            process.stdout.write(`${token}\n`);
            return 0;
          } catch (error) {
            if (error instanceof TokenInputError) throw new UsageError(error.message);
            throw error;
          }
        });
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`opsdeck: ${(error as Error).message}\nRun "opsdeck --help" for usage.\n`);
      return 2;
    }
    if (await isExpectedError(error)) {
      process.stderr.write(`opsdeck: ${(error as Error).message}\n`);
      return 1;
    }
    process.stderr.write(`opsdeck: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
