import path from 'node:path';
import type { FileEntryWithStats, SFTPWrapper, Stats as SftpStats } from 'ssh2';
import { z } from 'zod';
import { errorText } from './check-result.js';
import {
  integerField,
  resolveConnectionDetails,
  resolveValue,
  textField,
  valueSourceField,
} from './spec-fields.js';
import { CheckSpecError, type CheckContext } from './types.js';

/**
 * SFTP status codes (draft-ietf-secsh-filexfer, SSH_FX_*) the messages name. ssh2 itself is
 * imported when a session opens: loading it costs ~200 ms that `opsdeck apply` (which only
 * validates specs) should not pay (issue 22).
 */
const STATUS = { EOF: 1, NO_SUCH_FILE: 2, PERMISSION_DENIED: 3 } as const;

/**
 * The ecosystem's `sftpConnection` (a folder check's remote): `host`, `port` (default 22) and
 * `username`/`password` as EnvVar values, or a named `connection` that fills what is not written.
 * Older specs nest the credentials under `auth`.
 */
export const sftpConnectionSchema = z.looseObject({
  connection: textField.optional(),
  host: textField.optional(),
  port: integerField
    .pipe(z.number().min(1, 'must be between 1 and 65535').max(65535, 'must be between 1 and 65535'))
    .optional(),
  username: valueSourceField.optional(),
  password: valueSourceField.optional(),
  auth: z
    .looseObject({ username: valueSourceField.optional(), password: valueSourceField.optional() })
    .optional(),
});

export type SftpConnectionSpec = z.infer<typeof sftpConnectionSchema>;

export const DEFAULT_SFTP_PORT = 22;

/** A failure talking to the SFTP server; its message is what the check reports. */
export class SftpError extends Error {
  override readonly name = 'SftpError';
}

export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** "host", "host:port", "[v6]:port" or "sftp://host:port" as a connection's url holds it. */
function splitHost(text: string): { host: string; port?: number } {
  const trimmed = text
    .trim()
    .replace(/^(sftp|ssh):\/\//i, '')
    .replace(/\/.*$/, '');
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(trimmed) ?? /^([^:]+)(?::(\d+))?$/.exec(trimmed);
  if (!match) return { host: trimmed };
  return { host: match[1], port: match[2] === undefined ? undefined : Number(match[2]) };
}

/** The host, port and credentials of an `sftpConnection`: fields written in the spec win. */
export async function resolveSftpTarget(spec: SftpConnectionSpec, ctx: CheckContext): Promise<SftpTarget> {
  const details = await resolveConnectionDetails(
    { connection: spec.connection, username: spec.username, password: spec.password },
    ctx,
  );
  const username =
    details.username || (await resolveValue(spec.auth?.username, ctx, 'sftpConnection.auth.username')) || '';
  const password =
    details.password || (await resolveValue(spec.auth?.password, ctx, 'sftpConnection.auth.password')) || '';
  const fromConnection = details.url ? splitHost(details.url) : undefined;
  const written = spec.host?.trim() ? splitHost(spec.host) : undefined;
  const host = written?.host || fromConnection?.host || '';
  const connectionPort = Number(details.connection?.properties?.port);
  const port =
    spec.port ??
    written?.port ??
    fromConnection?.port ??
    (Number.isInteger(connectionPort) && connectionPort > 0 ? connectionPort : DEFAULT_SFTP_PORT);
  if (host === '') throw new CheckSpecError('sftpConnection: a host is required');
  if (username === '') throw new CheckSpecError('sftpConnection: a username is required');
  return { host, port, username, password };
}

/** `host:port`, with IPv6 addresses in brackets. */
export function sftpEndpoint(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** An entry as a folder listing needs it; symlinks are listed, not followed. */
export interface SftpEntry {
  name: string;
  size: number;
  mode: number;
  modifiedMs: number;
  isDirectory: boolean;
}

/** An open SFTP session on one server. */
export interface SftpFolderSession {
  /** 'folder', 'other' for anything else; throws "no such directory" when nothing is there. */
  kind(target: string): Promise<'folder' | 'other'>;
  /** The folder's entries ('.' and '..' left out); reads no more than limit + 1 of them. */
  list(directory: string, limit: number): Promise<SftpEntry[]>;
  /** Free and total bytes, when the server offers the statvfs@openssh.com extension. */
  space(target: string): Promise<{ available: number; total: number }>;
  close(): void;
}

function statusText(error: unknown, target: string): string {
  const code = (error as { code?: unknown }).code;
  if (code === STATUS.NO_SUCH_FILE) return `no such directory ${target}`;
  if (code === STATUS.PERMISSION_DENIED) return `permission denied on ${target}`;
  return `${target}: ${errorText(error)}`;
}

function toEntry(entry: FileEntryWithStats): SftpEntry {
  return entryFromStats(entry.filename, entry.attrs);
}

function entryFromStats(name: string, attrs: SftpStats): SftpEntry {
  return {
    name,
    size: attrs.size,
    mode: attrs.mode & 0o777,
    modifiedMs: attrs.mtime * 1_000,
    isDirectory: attrs.isDirectory(),
  };
}

/**
 * Connects, logs in with the password and opens the SFTP subsystem. The session closes when the
 * check's signal aborts (its deadline), so a server that stops answering never holds a socket.
 * The server's host key is accepted as offered, as the ecosystem's folder check does.
 */
export async function openSftpFolder(target: SftpTarget, ctx: CheckContext): Promise<SftpFolderSession> {
  const where = sftpEndpoint(target.host, target.port);
  const { default: ssh2 } = await import('ssh2');
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    let settled = false;
    let sftp: SFTPWrapper | undefined;
    const close = () => {
      ctx.signal.removeEventListener('abort', onAbort);
      client.destroy();
    };
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      close();
      reject(new SftpError(`sftp: ${message}`));
    };
    const onAbort = () => fail(`no answer from ${where} within ${ctx.timeoutMs}ms`);
    if (ctx.signal.aborted) {
      onAbort();
      return;
    }
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    client.on('error', (error: Error & { level?: string }) => {
      if (error.level === 'client-authentication')
        fail(`authentication failed for ${target.username} on ${where}`);
      else if (error.level === 'client-timeout') fail(`no answer from ${where} within ${ctx.timeoutMs}ms`);
      else fail(`cannot connect to ${where}: ${errorText(error)}`);
    });
    client.on('close', () => fail(`${where} closed the connection`));
    client.on('ready', () => {
      client.sftp((error, wrapper) => {
        if (error) {
          fail(`${where} refused the SFTP subsystem: ${errorText(error)}`);
          return;
        }
        sftp = wrapper;
        settled = true;
        resolve(session(wrapper));
      });
    });

    const call = <T>(run: (done: (error: unknown, value?: T) => void) => void): Promise<T> =>
      new Promise<T>((done, failed) => {
        if (ctx.signal.aborted) {
          failed(new SftpError(`sftp: no answer from ${where} within ${ctx.timeoutMs}ms`));
          return;
        }
        const stop = () => failed(new SftpError(`sftp: no answer from ${where} within ${ctx.timeoutMs}ms`));
        ctx.signal.addEventListener('abort', stop, { once: true });
        try {
          run((error, value) => {
            ctx.signal.removeEventListener('abort', stop);
            if (error) failed(error);
            else done(value as T);
          });
        } catch (error) {
          ctx.signal.removeEventListener('abort', stop);
          failed(error);
        }
      });

    const session = (wrapper: SFTPWrapper): SftpFolderSession => ({
      async kind(targetPath) {
        try {
          const attrs = await call<SftpStats>((done) => wrapper.stat(targetPath, done));
          return attrs.isDirectory() ? 'folder' : 'other';
        } catch (error) {
          if (error instanceof SftpError) throw error;
          throw new SftpError(`sftp: ${statusText(error, targetPath)}`);
        }
      },
      async list(directory, limit) {
        try {
          const handle = await call<Buffer>((done) => wrapper.opendir(directory, done));
          const entries: SftpEntry[] = [];
          try {
            // Batch by batch, so a huge folder stops at the limit instead of filling memory.
            while (entries.length <= limit) {
              let batch: FileEntryWithStats[];
              try {
                batch = await call<FileEntryWithStats[]>((done) => wrapper.readdir(handle, done));
              } catch (error) {
                if ((error as { code?: unknown }).code === STATUS.EOF) break;
                throw error;
              }
              for (const entry of batch) entries.push(toEntry(entry));
            }
          } finally {
            wrapper.close(handle, () => undefined);
          }
          return entries;
        } catch (error) {
          if (error instanceof SftpError) throw error;
          throw new SftpError(`sftp: ${statusText(error, directory)}`);
        }
      },
      async space(targetPath) {
        try {
          const info = await call<Record<string, number | bigint | string>>((done) =>
            wrapper.ext_openssh_statvfs(targetPath, done),
          );
          const unit = Number(info.f_frsize) || Number(info.f_bsize);
          return { available: Number(info.f_bavail) * unit, total: Number(info.f_blocks) * unit };
        } catch (error) {
          if (error instanceof SftpError) throw error;
          throw new SftpError(
            `sftp: ${where} does not report free space (statvfs@openssh.com): ${errorText(error)}`,
          );
        }
      },
      close: () => {
        sftp?.end();
        close();
      },
    });

    client.connect({
      host: target.host,
      port: target.port,
      username: target.username,
      password: target.password,
      readyTimeout: ctx.timeoutMs,
      // Password logins only: no agent or keyboard-interactive prompt can stall the check.
      tryKeyboard: false,
    });
  });
}

/** Joins remote paths (always '/'-separated, whatever the local platform). */
export function joinRemote(directory: string, name: string): string {
  return path.posix.join(directory, name);
}
