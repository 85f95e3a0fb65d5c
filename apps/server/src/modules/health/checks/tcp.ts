import net from 'node:net';
import { z } from 'zod';
import { elapsedSince, errorText, failing, passing } from './check-result.js';
import { baseSpecShape, formatAge, integerField, parseSpec, textField } from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const tcpSpecSchema = z.looseObject({
  ...baseSpecShape,
  endpoint: textField.pipe(z.string().min(1, 'an endpoint (host:port) is required')),
  thresholdMillis: integerField.optional(),
});

export type TcpCheckSpec = z.infer<typeof tcpSpecSchema>;

/** Splits "host:port", "[v6]:port" or "tcp://host:port". */
export function parseHostPort(endpoint: string): { host: string; port: number } {
  const text = endpoint.trim().replace(/^tcp:\/\//i, '');
  const match = /^\[([^\]]+)\]:(\d+)$/.exec(text) ?? /^([^:\s]+):(\d+)$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new CheckSpecError(`invalid tcp check: endpoint "${endpoint}" must be host:port`);
  }
  return { host: match[1], port };
}

function connect(host: string, port: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const onAbort = () => {
      socket.destroy();
      reject(new Error(`connection to ${host}:${port} timed out`));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      signal.removeEventListener('abort', onAbort);
      socket.end();
      socket.destroy();
      resolve();
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(error);
    });
  });
}

async function runTcpCheck(spec: TcpCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const { host, port } = parseHostPort(spec.endpoint);
  const started = performance.now();
  try {
    await connect(host, port, ctx.signal);
  } catch (error) {
    return failing(
      passing({ duration: elapsedSince(started), data: { connected: false } }),
      errorText(error),
    );
  }
  const duration = elapsedSince(started);
  const result = passing({ duration, data: { connected: true, elapsed: duration }, durations: ['elapsed'] });
  if (spec.thresholdMillis !== undefined && spec.thresholdMillis > 0 && duration > spec.thresholdMillis) {
    return failing(result, `threshold exceeded ${formatAge(duration)} > ${spec.thresholdMillis}ms`);
  }
  return result;
}

export const tcpCheck: CheckType<TcpCheckSpec> = {
  type: 'tcp',
  specKey: 'tcp',
  schema: tcpSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(tcpSpecSchema, raw, 'tcp');
    parseHostPort(spec.endpoint);
    return spec;
  },
  endpoint: (spec) => spec.endpoint,
  run: runTcpCheck,
};
