import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export class InstanceLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Opsdeck is already running with the data directory ${dataDir} (pid ${pid}). ` +
        'Stop that process first, or set DATA_DIR to another directory.',
    );
    this.name = 'InstanceLockedError';
  }
}

interface LockContent {
  pid: number;
  hostname: string;
  startedAt: string;
}

function holderIsAlive(lock: LockContent): boolean {
  if (lock.hostname !== os.hostname() || lock.pid === process.pid) return false;
  try {
    process.kill(lock.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A recycled pid that now belongs to another program does not hold our lock.
  try {
    return readFileSync(`/proc/${lock.pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}

/**
 * One Opsdeck process per embedded data directory: the embedded PostgreSQL belongs to the
 * process that started it. (Several processes share an external DATABASE_URL instead.)
 */
export class InstanceLock {
  private readonly file: string;
  private held = false;

  constructor(readonly dataDir: string) {
    this.file = path.join(dataDir, 'opsdeck.lock');
  }

  async acquire(): Promise<void> {
    await fs.mkdir(this.dataDir, { recursive: true });
    const content: LockContent = {
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: new Date().toISOString(),
    };
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        await fs.writeFile(this.file, JSON.stringify(content), { flag: 'wx' });
        this.held = true;
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const existing = await this.read();
      if (existing && holderIsAlive(existing)) throw new InstanceLockedError(this.dataDir, existing.pid);
      await fs.rm(this.file, { force: true });
    }
    throw new Error(`Could not take the lock file ${this.file}`);
  }

  async release(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    const existing = await this.read();
    if (existing?.pid === process.pid) await fs.rm(this.file, { force: true });
  }

  /** The pid of a live process holding the lock, if any. */
  async holder(): Promise<number | undefined> {
    const existing = await this.read();
    return existing && holderIsAlive(existing) ? existing.pid : undefined;
  }

  private async read(): Promise<LockContent | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.file, 'utf8')) as LockContent;
    } catch {
      return undefined;
    }
  }
}
