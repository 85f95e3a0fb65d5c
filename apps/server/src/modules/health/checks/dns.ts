import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import { z } from 'zod';
import { elapsedSince, errorText, failing, passing } from './check-result.js';
import { baseSpecShape, integerField, parseSpec, textField } from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

export const DNS_QUERY_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'PTR'] as const;
type DnsQueryType = (typeof DNS_QUERY_TYPES)[number];

const dnsSpecSchema = z.looseObject({
  ...baseSpecShape,
  server: textField.optional(),
  port: integerField.optional(),
  query: textField.pipe(z.string().min(1, 'a query is required')),
  querytype: textField.optional(),
  minrecords: integerField.optional(),
  exactreply: z.array(textField).optional(),
  /** Seconds; the ecosystem's default is 10. */
  timeout: integerField.optional(),
  thresholdMillis: integerField.optional(),
});

export type DnsCheckSpec = z.infer<typeof dnsSpecSchema>;

const DEFAULT_TIMEOUT_SECONDS = 10;

function queryTypeOf(spec: DnsCheckSpec): DnsQueryType {
  const type = (spec.querytype ?? 'A').trim().toUpperCase();
  if (!(DNS_QUERY_TYPES as readonly string[]).includes(type)) {
    throw new CheckSpecError(
      `unknown query type: ${spec.querytype ?? ''} (use one of ${DNS_QUERY_TYPES.join(', ')})`,
    );
  }
  return type as DnsQueryType;
}

/** Every answer as text, in the shapes the ecosystem compares against `exactreply`. */
async function lookup(resolver: Resolver, type: DnsQueryType, query: string): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(query);
    case 'AAAA':
      return resolver.resolve6(query);
    case 'CNAME':
      return resolver.resolveCname(query);
    case 'MX':
      return (await resolver.resolveMx(query)).map((record) => `${record.exchange} ${record.priority}`);
    case 'TXT':
      return (await resolver.resolveTxt(query)).map((chunks) => chunks.join(''));
    case 'NS':
      return resolver.resolveNs(query);
    case 'SRV':
      return (await resolver.resolveSrv(query)).map(
        (record) => `${record.name} ${record.port} ${record.priority} ${record.weight}`,
      );
    case 'PTR':
      // An address asks for its reverse name; an in-addr.arpa / ip6.arpa name is queried as is.
      return net.isIP(query) ? resolver.reverse(query) : resolver.resolvePtr(query);
  }
}

function formatList(items: string[]): string {
  return `[${items.join(' ')}]`;
}

async function runDnsCheck(spec: DnsCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const type = queryTypeOf(spec);
  const timeoutMs = Math.min((spec.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1_000, ctx.timeoutMs);
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const server = spec.server?.trim();
  if (server) {
    const port = spec.port ?? 53;
    resolver.setServers([net.isIPv6(server) ? `[${server}]:${port}` : `${server}:${port}`]);
  }
  const onAbort = () => resolver.cancel();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const where = server ? ` on ${server}` : '';
  const started = performance.now();
  let records: string[];
  try {
    records = await lookup(resolver, type, spec.query);
  } catch (error) {
    const reason = ctx.signal.aborted ? `timed out after ${timeoutMs}ms` : errorText(error);
    return failing(
      passing({ duration: elapsedSince(started), data: { records: [] } }),
      `${type} ${spec.query}${where}: ${reason}`,
    );
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
  const duration = elapsedSince(started);
  const result = passing({
    duration,
    data: { records, count: records.length },
    detail: { queryType: type, query: spec.query, server: server ?? null, records },
    empty: records.length === 0,
  });

  const problems: string[] = [];
  if (spec.minrecords !== undefined && records.length < spec.minrecords) {
    problems.push(`returned ${records.length} results, expecting ${spec.minrecords}`);
  }
  if (spec.exactreply && spec.exactreply.length > 0) {
    const normalise = (items: string[]) =>
      items.map((item) => item.trim().toLowerCase().replace(/\.$/, '')).sort();
    const got = normalise(records);
    const expected = normalise(spec.exactreply);
    if (got.length !== expected.length || got.some((item, index) => item !== expected[index])) {
      problems.push(`Got ${formatList(got)}, expected ${formatList(spec.exactreply)}`);
    }
  }
  if (problems.length > 0) return failing(result, `${type} ${spec.query}${where}: ${problems.join(', ')}`);
  if (spec.thresholdMillis !== undefined && spec.thresholdMillis > 0 && duration > spec.thresholdMillis) {
    return failing(result, `${duration}ms > ${spec.thresholdMillis}ms`);
  }
  return { ...result, message: `got ${formatList(records)}` };
}

export const dnsCheck: CheckType<DnsCheckSpec> = {
  type: 'dns',
  specKey: 'dns',
  schema: dnsSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(dnsSpecSchema, raw, 'dns');
    queryTypeOf(spec);
    return spec;
  },
  endpoint: (spec) => {
    let endpoint = `${(spec.querytype ?? 'A').toUpperCase()}/${spec.query}`;
    if (spec.server) endpoint += `@${spec.server}${spec.port ? `:${spec.port}` : ''}`;
    return endpoint;
  },
  run: runDnsCheck,
};
