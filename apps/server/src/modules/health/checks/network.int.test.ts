import dgram from 'node:dgram';
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import dnsPacket, { type Answer, type Packet, type Question } from 'dns-packet';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, type RunCheckOptions } from './run-check.js';

const options: RunCheckOptions = {
  canary: { name: 'net', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: () => undefined,
  timeoutMs: 5_000,
};

/** Answers for the zone the test DNS server serves. */
function answersFor(question: Question): Answer[] {
  const { name, type } = question;
  const zone: Record<string, Answer[]> = {
    'A app.test': [
      { name, type: 'A', ttl: 60, data: '10.0.0.1' },
      { name, type: 'A', ttl: 60, data: '10.0.0.2' },
    ],
    'AAAA app.test': [{ name, type: 'AAAA', ttl: 60, data: 'fd00::1' }],
    'CNAME www.app.test': [{ name, type: 'CNAME', ttl: 60, data: 'app.test' }],
    'MX app.test': [{ name, type: 'MX', ttl: 60, data: { preference: 10, exchange: 'mail.app.test' } }],
    'TXT app.test': [{ name, type: 'TXT', ttl: 60, data: ['v=spf1 ', '-all'] }],
    'NS app.test': [
      { name, type: 'NS', ttl: 60, data: 'ns1.app.test' },
      { name, type: 'NS', ttl: 60, data: 'ns2.app.test' },
    ],
    'SRV _http._tcp.app.test': [
      { name, type: 'SRV', ttl: 60, data: { priority: 1, weight: 5, port: 8080, target: 'web.app.test' } },
    ],
    'PTR 1.0.0.10.in-addr.arpa': [{ name, type: 'PTR', ttl: 60, data: 'host1.app.test' }],
  };
  return zone[`${type} ${name.toLowerCase()}`] ?? [];
}

let dnsServer: dgram.Socket;
let dnsPort = 0;
let tcpServer: net.Server;
let openPort = 0;
let closedPort = 0;

beforeAll(async () => {
  dnsServer = dgram.createSocket('udp4');
  dnsServer.on('message', (message, remote) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    if (question.name === 'silent.app.test') return;
    const answers = answersFor(question);
    const reply: Packet = {
      id: query.id,
      type: 'response',
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (answers.length === 0 ? 3 : 0),
      questions: [question],
      answers,
    };
    dnsServer.send(dnsPacket.encode(reply), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => dnsServer.bind(0, '127.0.0.1', resolve));
  dnsPort = dnsServer.address().port;

  tcpServer = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => tcpServer.listen(0, '127.0.0.1', resolve));
  openPort = (tcpServer.address() as AddressInfo).port;
  // A port that was just free: bind, note it, close it.
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  dnsServer.close();
  await new Promise((resolve) => tcpServer.close(resolve));
});

describe('tcp check', () => {
  it('passes on an open port and fails on a closed one', async () => {
    const open = await runCheck('tcp', { name: 'open', endpoint: `127.0.0.1:${openPort}` }, options);
    expect(open.result).toMatchObject({ pass: true, error: '' });
    expect(open.endpoint).toBe(`127.0.0.1:${openPort}`);
    const closed = await runCheck('tcp', { name: 'closed', endpoint: `127.0.0.1:${closedPort}` }, options);
    expect(closed.result.pass).toBe(false);
    expect(closed.result.error).toMatch(/ECONNREFUSED/);
  });

  it('rejects an endpoint without a port as an invalid spec', async () => {
    const run = await runCheck('tcp', { name: 'bad', endpoint: 'localhost' }, options);
    expect(run.result).toMatchObject({ invalid: true });
    expect(run.result.error).toMatch(/must be host:port/);
  });
});

describe('dns check against a DNS server started by the test', () => {
  const server = '127.0.0.1';
  const base = () => ({ server, port: dnsPort });

  it('resolves every supported query type', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['A', 'app.test', ['10.0.0.1', '10.0.0.2']],
      ['AAAA', 'app.test', ['fd00::1']],
      ['CNAME', 'www.app.test', ['app.test']],
      ['MX', 'app.test', ['mail.app.test 10']],
      ['TXT', 'app.test', ['v=spf1 -all']],
      ['NS', 'app.test', ['ns1.app.test', 'ns2.app.test']],
      ['SRV', '_http._tcp.app.test', ['web.app.test 8080 1 5']],
      ['PTR', '10.0.0.1', ['host1.app.test']],
    ];
    for (const [querytype, query, exactreply] of cases) {
      const run = await runCheck(
        'dns',
        { name: `${querytype}-check`, ...base(), query, querytype, exactreply },
        options,
      );
      expect(run.result, `${querytype} ${query}: ${run.result.error}`).toMatchObject({ pass: true });
      expect(run.result.data.records).toEqual(exactreply);
    }
  });

  it('fails on too few records, a different reply, or a missing name', async () => {
    const few = await runCheck(
      'dns',
      { name: 'few', ...base(), query: 'app.test', querytype: 'A', minrecords: 3 },
      options,
    );
    expect(few.result).toMatchObject({
      pass: false,
      error: 'A app.test on 127.0.0.1: returned 2 results, expecting 3',
    });
    const different = await runCheck(
      'dns',
      { name: 'diff', ...base(), query: 'app.test', exactreply: ['10.9.9.9'] },
      options,
    );
    expect(different.result).toMatchObject({
      pass: false,
      error: 'A app.test on 127.0.0.1: Got [10.0.0.1 10.0.0.2], expected [10.9.9.9]',
    });
    const missing = await runCheck('dns', { name: 'missing', ...base(), query: 'nothing.app.test' }, options);
    expect(missing.result.pass).toBe(false);
    expect(missing.result.error).toMatch(/^A nothing\.app\.test on 127\.0\.0\.1: .*ENOTFOUND/);
  });

  it('times out a server that does not answer', async () => {
    const started = Date.now();
    const run = await runCheck(
      'dns',
      { name: 'silent', ...base(), query: 'silent.app.test', timeout: 1 },
      options,
    );
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/ETIMEOUT|timed out/);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('rejects an unknown query type', async () => {
    const run = await runCheck(
      'dns',
      { name: 'bad', ...base(), query: 'app.test', querytype: 'SOA' },
      options,
    );
    expect(run.result).toMatchObject({ invalid: true });
    expect(run.result.error).toMatch(/unknown query type: SOA/);
  });
});

async function pingAvailable(): Promise<boolean> {
  for (const directory of [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/bin',
    '/usr/bin',
    '/sbin',
    '/usr/sbin',
  ]) {
    if (directory === '') continue;
    try {
      await access(path.join(directory, 'ping'), constants.X_OK);
      return true;
    } catch {
      // keep looking
    }
  }
  return false;
}

describe('icmp check', () => {
  it('pings the loopback address when ping is installed, and says so clearly when it is not', async () => {
    const run = await runCheck(
      'icmp',
      { name: 'loopback', endpoint: '127.0.0.1', packetCount: 2, thresholdMillis: 1_000 },
      options,
    );
    if (await pingAvailable()) {
      expect(run.result, run.result.error).toMatchObject({ pass: true });
      expect(run.result.data).toMatchObject({ packetLoss: 0, packetsSent: 2, packetsReceived: 2 });
      // TEST-NET-1 is never routed: every packet is lost.
      const lost = await runCheck(
        'icmp',
        { name: 'lost', endpoint: '192.0.2.1', packetCount: 1, thresholdMillis: 500 },
        options,
      );
      expect(lost.result.pass).toBe(false);
    } else {
      expect(run.result).toMatchObject({
        pass: false,
        invalid: true,
        error: 'ICMP checks need the system ping command, which is not installed on this server',
      });
    }
  });

  it('reads loss and latency from ping and applies the thresholds (stand-in ping printing iputils output)', async () => {
    // The machine may lack ping; a stand-in on PATH still drives the spawn, parse and threshold path.
    const directory = await mkdtemp(path.join(tmpdir(), 'opsdeck-ping-'));
    const script = [
      '#!/bin/sh',
      'for last; do :; done',
      'if [ "$last" = "10.1.1.1" ]; then',
      '  printf "4 packets transmitted, 3 received, 25%% packet loss, time 3004ms\\nrtt min/avg/max/mdev = 1.000/2.500/4.000/1.100 ms\\n"',
      '  exit 1',
      'fi',
      'printf "4 packets transmitted, 4 received, 0%% packet loss, time 3004ms\\nrtt min/avg/max/mdev = 10.000/40.250/90.000/5.000 ms\\n"',
    ].join('\n');
    await writeFile(path.join(directory, 'ping'), `${script}\n`);
    await chmod(path.join(directory, 'ping'), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${directory}${path.delimiter}${savedPath ?? ''}`;
    try {
      const fine = await runCheck(
        'icmp',
        { name: 'ok', endpoint: '10.2.2.2', packetCount: 4, thresholdMillis: 100 },
        options,
      );
      expect(fine.result).toMatchObject({ pass: true, message: '4/4 replies, avg 40.25ms' });
      expect(fine.result.data).toMatchObject({
        packetLoss: 0,
        latency: 40.25,
        minLatency: 10,
        maxLatency: 90,
      });
      const slow = await runCheck(
        'icmp',
        { name: 'slow', endpoint: '10.2.2.2', packetCount: 4, thresholdMillis: 20 },
        options,
      );
      expect(slow.result).toMatchObject({ pass: false, error: 'latency of 40.25ms > 20ms' });
      const lossy = await runCheck('icmp', { name: 'lossy', endpoint: '10.1.1.1', packetCount: 4 }, options);
      expect(lossy.result).toMatchObject({ pass: false, error: 'packet loss of 25% > 0%' });
      const tolerated = await runCheck(
        'icmp',
        { name: 'tolerated', endpoint: '10.1.1.1', packetLossThreshold: 30 },
        options,
      );
      expect(tolerated.result.pass).toBe(true);
    } finally {
      process.env.PATH = savedPath;
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses an endpoint that is not a host', async () => {
    const run = await runCheck('icmp', { name: 'flag', endpoint: '-f 127.0.0.1' }, options);
    expect(run.result).toMatchObject({ invalid: true });
  });
});
