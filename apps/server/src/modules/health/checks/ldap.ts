import net from 'node:net';
import tls from 'node:tls';
import { Client, FilterParser, ResultCodeError, type Entry } from 'ldapts';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  baseSpecShape,
  booleanField,
  connectionShape,
  parseSpec,
  resolveConnectionDetails,
  resolveValue,
  sanitizeUrl,
  textField,
  valueSourceField,
} from './spec-fields.js';
import type { CheckContext, CheckResult, CheckType } from './types.js';

const ldapSpecSchema = z
  .looseObject({
    ...baseSpecShape,
    ...connectionShape,
    /** `ldap://host:389` or `ldaps://host:636` (older specs; newer ones use `url`). */
    host: textField.optional(),
    /** Older specs' credentials; `username`/`password` or the connection's win when set. */
    auth: z
      .looseObject({ username: valueSourceField.optional(), password: valueSourceField.optional() })
      .optional(),
    /** Base DN of the search. */
    bindDN: textField.pipe(z.string().min(1, 'a bindDN (the search base) is required')),
    /** RFC 4515 filter, e.g. `(&(objectClass=organizationalPerson)(uid=alice))`. */
    userSearch: textField.optional(),
    skipTLSVerify: booleanField.optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.url === undefined && spec.host === undefined && spec.connection === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['host'],
        message: 'a host (ldap://...), url or connection is required',
      });
    }
    if (spec.userSearch?.trim()) {
      try {
        FilterParser.parseString(spec.userSearch.trim());
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['userSearch'], message: errorText(error) });
      }
    }
  });

export type LdapCheckSpec = z.infer<typeof ldapSpecSchema>;

const DEFAULT_FILTER = '(objectClass=*)';
/** Entries fetched (and shown) per run: a health check needs to know there are some. */
const MAX_ENTRIES = 100;

/** LDAP result codes a check is likely to meet, by their RFC 4511 §4.1.9 names. */
const RESULT_NAMES: Record<number, string> = {
  1: 'operationsError',
  2: 'protocolError',
  3: 'timeLimitExceeded',
  4: 'sizeLimitExceeded',
  7: 'authMethodNotSupported',
  8: 'strongerAuthRequired',
  10: 'referral',
  11: 'adminLimitExceeded',
  13: 'confidentialityRequired',
  32: 'noSuchObject',
  34: 'invalidDNSyntax',
  48: 'inappropriateAuthentication',
  49: 'invalidCredentials',
  50: 'insufficientAccessRights',
  51: 'busy',
  52: 'unavailable',
  53: 'unwillingToPerform',
  80: 'other',
};

/**
 * `invalidCredentials (49): <the server's diagnostic>` for a result code; ldapts puts the
 * diagnostic (or its own wording when the server sent none) before ` Code: 0x..`.
 */
function ldapErrorText(error: unknown): string {
  if (!(error instanceof ResultCodeError)) return errorText(error);
  const diagnostic = error.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
  return `${RESULT_NAMES[error.code] ?? 'error'} (${error.code})${diagnostic ? `: ${diagnostic}` : ''}`;
}

/** An entry's attributes as lists of strings (ldapts gives one value bare, binary ones as Buffers). */
function entryAttributes(entry: Entry): Record<string, string[]> {
  const attributes: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(entry)) {
    if (name === 'dn') continue;
    const values: Array<string | Buffer> = Array.isArray(value) ? value : [value];
    attributes[name] = values.map((item) => (typeof item === 'string' ? item : item.toString('utf8')));
  }
  return attributes;
}

async function runLdapCheck(spec: LdapCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const details = await resolveConnectionDetails({ ...spec, url: spec.url ?? spec.host }, ctx);
  if (details.url === '') return invalidResult('no host, url or connection specified');
  let url: URL;
  try {
    url = new URL(details.url);
  } catch {
    return invalidResult(`invalid url '${sanitizeUrl(details.url)}'`);
  }
  if (url.protocol !== 'ldap:' && url.protocol !== 'ldaps:') {
    return invalidResult(`invalid url, the scheme must be ldap or ldaps '${sanitizeUrl(details.url)}'`);
  }
  const username = details.username || (await resolveValue(spec.auth?.username, ctx, 'auth.username')) || '';
  const password = details.password || (await resolveValue(spec.auth?.password, ctx, 'auth.password')) || '';
  const filter = spec.userSearch?.trim() || DEFAULT_FILTER;
  const started = performance.now();
  const fail = (reason: string, detail?: CheckResult['detail']) =>
    failing(passing({ duration: elapsedSince(started), detail }), reason);
  const stopped = () => `ldap request to ${sanitizeUrl(url.toString())} timed out after ${ctx.timeoutMs}ms`;

  // ldapts takes the scheme, host and port only; credentials and a DN path in the URL stay ours.
  const secure = url.protocol === 'ldaps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // The sockets ldapts opens, so that the check's deadline can close them mid-connect or mid-read.
  const sockets: net.Socket[] = [];
  let connected = false;
  const opened = <T extends net.Socket>(socket: T): T => {
    sockets.push(socket);
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      connected = true;
    });
    return socket;
  };
  const client = new Client({
    url: `${url.protocol}//${url.host}`,
    createConnection: ((port: number, name: string) => opened(net.connect(port, name))) as typeof net.connect,
    createSecureConnection: ((port: number, name: string, options?: tls.ConnectionOptions) =>
      opened(tls.connect(port, name, options))) as typeof tls.connect,
    // Only for ldaps://: ldapts treats any TLS option as a request for TLS.
    tlsOptions: secure
      ? {
          servername: net.isIP(host) ? undefined : host,
          rejectUnauthorized: !(spec.skipTLSVerify ?? details.connection?.insecureTls ?? false),
        }
      : undefined,
  });
  const onAbort = () => {
    for (const socket of sockets) socket.destroy(new Error('the LDAP request was stopped'));
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await client.bind(username, password);
    } catch (error) {
      if (ctx.signal.aborted) return fail(stopped());
      // ldapts connects on the first request: a bind that never reached the server failed to connect.
      if (!connected) return fail(`failed to connect: ${errorText(error)}`);
      return fail(
        `failed to bind${username ? ` using ${username}` : ' anonymously'}: ${ldapErrorText(error)}`,
      );
    }
    let entries: Entry[];
    try {
      // One more than shown: a 101st entry says the directory holds more than the check keeps.
      ({ searchEntries: entries } = await client.search(spec.bindDN, {
        scope: 'sub',
        filter,
        sizeLimit: MAX_ENTRIES + 1,
        timeLimit: Math.max(1, Math.ceil(ctx.timeoutMs / 1_000)),
      }));
    } catch (error) {
      return fail(
        ctx.signal.aborted ? stopped() : `failed to search ${spec.bindDN}: ${ldapErrorText(error)}`,
      );
    }
    const results = {
      count: Math.min(entries.length, MAX_ENTRIES),
      sizeLimitExceeded: entries.length > MAX_ENTRIES,
      entries: entries.slice(0, MAX_ENTRIES).map((entry) => ({
        dn: entry.dn,
        // Hashes of passwords are never kept in results.
        attributes: Object.fromEntries(
          Object.entries(entryAttributes(entry)).filter(([name]) => name.toLowerCase() !== 'userpassword'),
        ),
      })),
    };
    const result = passing({
      duration: elapsedSince(started),
      data: { results, count: results.count },
      detail: { ...results, bindDN: spec.bindDN, filter },
      empty: results.count === 0,
    });
    return results.count === 0 ? failing(result, 'no results returned') : result;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    // The unbind is a courtesy: the result does not wait for it, and ldapts closes the socket.
    client.unbind().catch(() => undefined);
  }
}

export const ldapCheck: CheckType<LdapCheckSpec> = {
  type: 'ldap',
  specKey: 'ldap',
  schema: ldapSpecSchema,
  parse: (raw) => parseSpec(ldapSpecSchema, raw, 'ldap'),
  endpoint: (spec) => sanitizeUrl(spec.url ?? spec.host ?? spec.connection ?? ''),
  run: runLdapCheck,
};
