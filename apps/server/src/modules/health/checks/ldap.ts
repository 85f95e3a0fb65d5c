import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import { connectLdap, encodeFilter, LdapFilterError, type LdapConnection } from './ldap-client.js';
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
        encodeFilter(spec.userSearch);
      } catch (error) {
        if (!(error instanceof LdapFilterError)) throw error;
        ctx.addIssue({ code: 'custom', path: ['userSearch'], message: error.message });
      }
    }
  });

export type LdapCheckSpec = z.infer<typeof ldapSpecSchema>;

const DEFAULT_FILTER = '(objectClass=*)';
/** Entries fetched (and shown) per run: a health check needs to know there are some. */
const MAX_ENTRIES = 100;

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

  let connection: LdapConnection;
  try {
    connection = await connectLdap({
      url,
      rejectUnauthorized: !(spec.skipTLSVerify ?? details.connection?.insecureTls ?? false),
      signal: ctx.signal,
    });
  } catch (error) {
    return fail(ctx.signal.aborted ? stopped() : `failed to connect: ${errorText(error)}`);
  }
  try {
    try {
      await connection.bind(username, password);
    } catch (error) {
      return fail(
        ctx.signal.aborted
          ? stopped()
          : `failed to bind${username ? ` using ${username}` : ' anonymously'}: ${errorText(error)}`,
      );
    }
    let found: Awaited<ReturnType<LdapConnection['search']>>;
    try {
      found = await connection.search({
        baseDN: spec.bindDN,
        filter,
        sizeLimit: MAX_ENTRIES,
        timeLimit: Math.max(1, Math.ceil(ctx.timeoutMs / 1_000)),
      });
    } catch (error) {
      return fail(ctx.signal.aborted ? stopped() : `failed to search ${spec.bindDN}: ${errorText(error)}`);
    }
    const results = {
      count: found.entries.length,
      sizeLimitExceeded: found.sizeLimitExceeded,
      entries: found.entries.map((entry) => ({
        dn: entry.dn,
        // Hashes of passwords are never kept in results.
        attributes: Object.fromEntries(
          Object.entries(entry.attributes).filter(([name]) => name.toLowerCase() !== 'userpassword'),
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
    connection.close();
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
