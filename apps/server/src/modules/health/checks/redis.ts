import type { RedisOptions } from 'ioredis';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  baseSpecShape,
  connectionShape,
  integerField,
  parseSpec,
  resolveConnectionDetails,
  sanitizeUrl,
  textField,
} from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const redisSpecSchema = z.looseObject({
  ...baseSpecShape,
  ...connectionShape,
  /** Deprecated in the ecosystem in favour of `url`; "host:port". */
  addr: textField.optional(),
  db: integerField.optional(),
});

export type RedisCheckSpec = z.infer<typeof redisSpecSchema>;

function addressOptions(address: string): Pick<RedisOptions, 'host' | 'port'> {
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  if (!match) throw new CheckSpecError(`invalid redis check: addr "${address}" must be host:port`);
  return { host: match[1], port: match[2] ? Number(match[2]) : 6379 };
}

async function runRedisCheck(spec: RedisCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const details = await resolveConnectionDetails(spec, ctx);
  const address = details.url || spec.addr?.trim() || '';
  if (address === '') return invalidResult('no addr, url or connection specified for the redis check');
  const common: RedisOptions = {
    lazyConnect: true,
    connectTimeout: ctx.timeoutMs,
    commandTimeout: ctx.timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    // A check reports the first failure; it never waits for reconnects.
    retryStrategy: () => null,
    ...(details.username === '' ? {} : { username: details.username }),
    ...(details.password === '' ? {} : { password: details.password }),
    ...(spec.db === undefined ? {} : { db: spec.db }),
  };
  // Imported here, not at the top: ioredis costs ~250 ms of load that `opsdeck apply` should not pay.
  const { Redis } = await import('ioredis');
  const client = /^rediss?:\/\//i.test(address)
    ? new Redis(address, common)
    : new Redis({ ...addressOptions(address), ...common });
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
  });
  const onAbort = () => client.disconnect();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  try {
    await client.connect();
    const reply = await client.ping();
    const duration = elapsedSince(started);
    const result = passing({ duration, data: { results: { reply } }, detail: { reply } });
    return reply === 'PONG' ? result : failing(result, `expected PONG, got ${reply}`);
  } catch (error) {
    const reason = ctx.signal.aborted
      ? `redis at ${sanitizeUrl(address)} timed out after ${ctx.timeoutMs}ms`
      : errorText(lastError ?? error);
    return failing(passing({ duration: elapsedSince(started) }), reason);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    client.disconnect();
  }
}

export const redisCheck: CheckType<RedisCheckSpec> = {
  type: 'redis',
  specKey: 'redis',
  schema: redisSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(redisSpecSchema, raw, 'redis');
    if (!spec.addr && !spec.url && !spec.connection)
      throw new CheckSpecError('invalid redis check: addr: an address is required');
    if (spec.addr) addressOptions(spec.addr.trim());
    return spec;
  },
  endpoint: (spec) => sanitizeUrl(spec.url ?? spec.addr ?? spec.connection ?? ''),
  run: runRedisCheck,
};
