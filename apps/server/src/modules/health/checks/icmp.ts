import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { elapsedSince, failing, invalidResult, passing } from './check-result.js';
import { baseSpecShape, integerField, parseSpec, textField } from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const icmpSpecSchema = z.looseObject({
  ...baseSpecShape,
  endpoint: textField.pipe(z.string().min(1, 'a host is required')),
  thresholdMillis: integerField.optional(),
  packetLossThreshold: integerField.optional(),
  packetCount: integerField.optional(),
});

export type IcmpCheckSpec = z.infer<typeof icmpSpecSchema>;

const DEFAULT_PACKET_COUNT = 5;
const MAX_PACKET_COUNT = 100;
const PING_MISSING = 'ICMP checks need the system ping command, which is not installed on this server';
// Host names and addresses only: nothing that ping could read as an option.
const HOST_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.:%_-]*$/;

export interface PingSummary {
  transmitted: number;
  received: number;
  packetLoss: number;
  minLatency?: number;
  avgLatency?: number;
  maxLatency?: number;
}

/** Reads the summary lines of iputils, BusyBox and BSD ping. */
export function parsePingOutput(output: string): PingSummary | undefined {
  const counts = /(\d+)\s+packets? transmitted,\s*(\d+)\s+(?:packets? )?received/i.exec(output);
  if (!counts) return undefined;
  const transmitted = Number(counts[1]);
  const received = Number(counts[2]);
  const lossMatch = /([\d.]+)%\s+packet loss/i.exec(output);
  const packetLoss = lossMatch
    ? Number(lossMatch[1])
    : transmitted === 0
      ? 100
      : ((transmitted - received) / transmitted) * 100;
  const rtt =
    /(?:rtt|round-trip)\s+min\/avg\/max(?:\/(?:mdev|stddev))?\s*=\s*([\d.]+)\/([\d.]+)\/([\d.]+)/i.exec(
      output,
    );
  return {
    transmitted,
    received,
    packetLoss,
    minLatency: rtt ? Number(rtt[1]) : undefined,
    avgLatency: rtt ? Number(rtt[2]) : undefined,
    maxLatency: rtt ? Number(rtt[3]) : undefined,
  };
}

async function findPing(): Promise<string | undefined> {
  const directories = [
    ...(process.env.PATH ?? '').split(path.delimiter),
    '/bin',
    '/usr/bin',
    '/sbin',
    '/usr/sbin',
  ];
  for (const directory of directories) {
    if (directory === '') continue;
    const candidate = path.join(directory, 'ping');
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function runPing(
  binary: string,
  args: string[],
  signal: AbortSignal,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 65_536) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 65_536) stderr += chunk.toString('utf8');
    });
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ code, stdout, stderr });
    });
  });
}

async function runIcmpCheck(spec: IcmpCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const binary = await findPing();
  if (!binary) return invalidResult(PING_MISSING);
  const host = spec.endpoint.trim();
  const count = Math.min(Math.max(spec.packetCount ?? DEFAULT_PACKET_COUNT, 1), MAX_PACKET_COUNT);
  // Each reply waits at most the latency threshold (at least one second, as ping counts whole seconds).
  const waitSeconds = Math.max(1, Math.ceil((spec.thresholdMillis ?? 1_000) / 1_000));
  const args = ['-n', '-c', String(count), '-W', String(waitSeconds), '-i', '0.2', host];
  const started = performance.now();
  let output: { code: number | null; stdout: string; stderr: string };
  try {
    output = await runPing(binary, args, ctx.signal);
  } catch (error) {
    return invalidResult(`could not run ping: ${error instanceof Error ? error.message : String(error)}`);
  }
  const duration = elapsedSince(started);
  const summary = parsePingOutput(output.stdout);
  if (!summary) {
    const reason =
      (output.stderr || output.stdout).trim().split('\n')[0] ||
      `ping exited with code ${String(output.code)}`;
    if (/permission|not permitted|socket/i.test(reason))
      return invalidResult(`ping is not permitted on this server: ${reason}`);
    return failing(passing({ duration }), `ping ${host}: ${reason}`);
  }
  const data = {
    packetLoss: summary.packetLoss,
    packetsSent: summary.transmitted,
    packetsReceived: summary.received,
    latency: summary.avgLatency ?? null,
    minLatency: summary.minLatency ?? null,
    maxLatency: summary.maxLatency ?? null,
  };
  const result = passing({
    duration,
    data,
    detail: data,
    metrics: [
      { name: 'packet_loss', type: 'gauge', value: summary.packetLoss, labels: { endpoint: host } },
      ...(summary.avgLatency === undefined
        ? []
        : [
            {
              name: 'latency',
              type: 'gauge' as const,
              value: summary.avgLatency,
              labels: { endpoint: host },
            },
          ]),
    ],
  });
  const lossThreshold = spec.packetLossThreshold ?? 0;
  if (summary.received === 0)
    return failing(result, `no reply from ${host}: ${summary.packetLoss}% packet loss`);
  if (summary.packetLoss > lossThreshold) {
    return failing(result, `packet loss of ${summary.packetLoss}% > ${lossThreshold}%`);
  }
  if (
    spec.thresholdMillis !== undefined &&
    spec.thresholdMillis > 0 &&
    (summary.avgLatency ?? 0) > spec.thresholdMillis
  ) {
    return failing(result, `latency of ${summary.avgLatency ?? 0}ms > ${spec.thresholdMillis}ms`);
  }
  return {
    ...result,
    message: `${summary.received}/${summary.transmitted} replies, avg ${summary.avgLatency ?? 0}ms`,
  };
}

export const icmpCheck: CheckType<IcmpCheckSpec> = {
  type: 'icmp',
  specKey: 'icmp',
  schema: icmpSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(icmpSpecSchema, raw, 'icmp');
    if (!HOST_PATTERN.test(spec.endpoint.trim())) {
      throw new CheckSpecError(
        `invalid icmp check: endpoint "${spec.endpoint}" is not a host name or address`,
      );
    }
    return spec;
  },
  endpoint: (spec) => spec.endpoint,
  run: runIcmpCheck,
};
