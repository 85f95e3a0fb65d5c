import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { enqueueEvent } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';

/**
 * At-least-once delivery across a crash: the real server (`opsdeck serve`, in a child process)
 * takes a notification's event and is sending it to a local webhook peer when it is killed with
 * SIGKILL; a second server, started afterwards on the same database, delivers it once its claim's
 * lease lapses. Nothing is lost, and the send history holds one `sent` row for it.
 */
const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../cli/entry.ts');
let db: TestDatabase;
let dataDir: string;
const children: ChildProcess[] = [];

interface PeerRequest {
  path: string;
  body: string;
}

/** A webhook peer whose first request hangs (the delivery the killed server is in the middle of). */
async function startHangingPeer() {
  const requests: PeerRequest[] = [];
  const hung: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      if (requests.length === 1) {
        hung.push(res);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `opsdeck serve` from source, on the test database, as its own OS process. */
async function startServer() {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', ENTRY, 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@example.test',
      ADMIN_PASSWORD: 'kill-test-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<string | number>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code ?? 'unknown')),
  );
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      return response?.ok ?? false;
    },
    { timeoutMs: 90_000, what: 'the server to be ready' },
  );
  return { child, exited, output: () => output };
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-notify-kill-'));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await db?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a server killed while delivering a notification', () => {
  it('loses nothing: a restarted server delivers it, and it is recorded sent once', async () => {
    const peer = await startHangingPeer();
    try {
      const check = await createCheck(db.pool, { name: 'killed-mid-delivery' });
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO notifications (name, events, spec) VALUES ('kill-test', '{check.failed}', $1) RETURNING id`,
        [JSON.stringify({ events: ['check.failed'], to: { url: `${peer.origin}/hook` } })],
      );
      const ruleId = rows[0].id;
      const first = await startServer();
      await enqueueEvent(db.pool, 'check.failed', { id: check.id, error: 'HTTP 503' });
      // The first server has dequeued the event and is in the middle of the webhook call.
      await waitFor(async () => peer.requests.length === 1, {
        timeoutMs: 30_000,
        what: `the first delivery attempt. Output:\n${first.output()}`,
      });
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      const { rows: midway } = await db.pool.query<{ status: string }>(
        'SELECT status FROM notification_send_history WHERE notification_id = $1',
        [ruleId],
      );
      expect(midway.map((row) => row.status)).toEqual(['pending']);

      const second = await startServer();
      // The claim of the dead process lapses, the second server sends.
      await waitFor(async () => peer.requests.length === 2, {
        timeoutMs: 90_000,
        what: `the delivery after the restart. Output:\n${second.output()}`,
      });
      await waitFor(
        async () => {
          const { rows: history } = await db.pool.query<{ status: string }>(
            'SELECT status FROM notification_send_history WHERE notification_id = $1',
            [ruleId],
          );
          return history.length === 1 && history[0].status === 'sent';
        },
        { timeoutMs: 10_000, what: 'the history row to be sent' },
      );
      expect(peer.requests.map((request) => request.path)).toEqual(['/hook', '/hook']);
      expect(JSON.parse(peer.requests[1].body)).toMatchObject({
        title: 'Check killed-mid-delivery has failed',
      });
      // Nothing else arrives, and the queue holds nothing of it any more.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(peer.requests).toHaveLength(2);
      const { rows: queued } = await db.pool.query(
        `SELECT 1 FROM event_queue WHERE name LIKE 'notification.%'`,
      );
      expect(queued).toEqual([]);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await peer.close();
    }
  }, 240_000);
});
