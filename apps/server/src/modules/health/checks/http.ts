import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { z } from 'zod';
import type { JsonValue } from '../../../expressions/index.js';
import { OPSDECK_VERSION } from '../../../platform/version.js';
import { signRequest, type SigV4Credentials } from './aws-sigv4.js';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import { loadExpressions } from './expression-engine.js';
import { renderField } from './field-templates.js';
import { fetchClientCredentialsToken } from './oauth2.js';
import { digestAuthorization, parseDigestChallenge } from './digest-auth.js';
import { authenticateMessage, negotiateMessage, parseChallengeHeader } from './ntlm.js';
import {
  baseSpecShape,
  booleanField,
  connectionShape,
  formatAge,
  integerField,
  namedValueField,
  parseDuration,
  parseSpec,
  resolveConnectionDetails,
  resolveValue,
  sanitizeUrl,
  textField,
  valueSourceField,
} from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const httpSpecSchema = z.looseObject({
  ...baseSpecShape,
  ...connectionShape,
  /** Deprecated in the ecosystem in favour of `url`; still accepted. */
  endpoint: textField.optional(),
  thresholdMillis: integerField.optional(),
  responseCodes: z.array(integerField).optional(),
  responseContent: textField.optional(),
  responseJSONContent: z.looseObject({ path: textField, value: textField }).optional(),
  maxSSLExpiry: integerField.optional(),
  method: textField.optional(),
  ntlm: booleanField.optional(),
  ntlmv2: booleanField.optional(),
  body: textField.optional(),
  headers: z.array(namedValueField).optional(),
  templateBody: booleanField.optional(),
  env: z.array(namedValueField).optional(),
  oauth2: z
    .looseObject({
      clientID: valueSourceField.optional(),
      clientSecret: valueSourceField.optional(),
      tokenURL: textField.optional(),
      scopes: z.array(textField).optional(),
      params: z.record(z.string(), textField).optional(),
    })
    .optional(),
  awsSigV4: z
    .looseObject({
      accessKey: valueSourceField.optional(),
      secretKey: valueSourceField.optional(),
      sessionToken: valueSourceField.optional(),
      region: textField.optional(),
      service: textField.optional(),
      connection: textField.optional(),
      assumeRole: textField.optional(),
    })
    .optional(),
  /** The User-Agent sent; default `canary-checker/<version>` as the ecosystem's checks send it. */
  userAgent: textField.optional(),
  tlsConfig: z
    .looseObject({
      insecureSkipVerify: booleanField.optional(),
      handshakeTimeout: textField.optional(),
      ca: valueSourceField.optional(),
      cert: valueSourceField.optional(),
      key: valueSourceField.optional(),
    })
    .optional(),
  crawl: z.looseObject({}).optional(),
});

export type HttpCheckSpec = z.infer<typeof httpSpecSchema>;

/** Bodies larger than this are cut; checks look at status, headers and the start of the body. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** What the ecosystem's checker sends; targets that allow-list it keep working. */
export const DEFAULT_USER_AGENT = `canary-checker/${OPSDECK_VERSION} (opsdeck)`;

interface TlsOptions {
  rejectUnauthorized: boolean;
  ca?: string;
  cert?: string;
  key?: string;
}

interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  certificateValidTo?: Date;
}

function readBody(response: IncomingMessage): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    response.on('data', (chunk: Buffer) => {
      if (truncated) return;
      if (size + chunk.length > MAX_BODY_BYTES) {
        chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
        size = MAX_BODY_BYTES;
        truncated = true;
        response.destroy();
        resolve({ body: Buffer.concat(chunks), truncated });
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    response.on('end', () => resolve({ body: Buffer.concat(chunks), truncated }));
    response.on('error', (error) => (truncated ? undefined : reject(error)));
    response.on('aborted', () => reject(new Error('the response was aborted')));
  });
}

function decodeBody(body: Buffer, encoding: string | undefined): Buffer {
  const options = { maxOutputLength: MAX_BODY_BYTES };
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body, options);
    case 'deflate':
      return inflateSync(body, options);
    case 'br':
      return brotliDecompressSync(body, options);
    default:
      return body;
  }
}

function sendOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  tls: TlsOptions,
  signal: AbortSignal,
  agent: http.Agent | false = false,
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const isHttps = url.protocol === 'https:';
    const requestHeaders: Record<string, string> = { ...headers };
    if (body !== undefined) requestHeaders['content-length'] = String(body.length);
    const options: https.RequestOptions = {
      method,
      headers: requestHeaders,
      signal,
      // A fresh connection per request, so the peer certificate is always the one just presented;
      // NTLM's one kept-alive connection (it authenticates the connection, not the request).
      agent,
      ...(isHttps
        ? { rejectUnauthorized: tls.rejectUnauthorized, ca: tls.ca, cert: tls.cert, key: tls.key }
        : {}),
    };
    const request = (isHttps ? https : http).request(url, options, (response) => {
      let certificateValidTo: Date | undefined;
      if (isHttps) {
        const certificate = (response.socket as TLSSocket).getPeerCertificate?.();
        if (certificate && typeof certificate.valid_to === 'string' && certificate.valid_to !== '') {
          certificateValidTo = new Date(certificate.valid_to);
        }
      }
      readBody(response).then(({ body: raw, truncated }) => {
        try {
          const decoded = truncated ? raw : decodeBody(raw, response.headers['content-encoding']);
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: decoded,
            truncated,
            certificateValidTo,
          });
        } catch (error) {
          reject(
            new Error(
              `could not decode the ${String(response.headers['content-encoding'])} response: ${errorText(error)}`,
            ),
          );
        }
      }, reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

interface Exchange {
  response: HttpResponse;
  finalUrl: URL;
  redirects: string[];
}

/**
 * Sends the request, answering a Digest challenge once and following redirects unless the
 * spec expects a redirect status itself (a 3xx among `responseCodes`). With `ntlm`, every request
 * opens with an NTLM NEGOTIATE on one kept-alive connection and answers the server's CHALLENGE
 * on that same connection.
 */
async function exchange(
  start: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  credentials: { username: string; password: string; ntlm?: boolean },
  followRedirects: boolean,
  tls: TlsOptions,
  signal: AbortSignal,
): Promise<Exchange> {
  if (!credentials.ntlm) {
    return exchangeOn(start, method, headers, body, credentials, followRedirects, tls, signal, false);
  }
  const agentOptions = { keepAlive: true, maxSockets: 1 };
  const agent =
    start.protocol === 'https:'
      ? new https.Agent({
          ...agentOptions,
          rejectUnauthorized: tls.rejectUnauthorized,
          ca: tls.ca,
          cert: tls.cert,
          key: tls.key,
        })
      : new http.Agent(agentOptions);
  try {
    return await exchangeOn(start, method, headers, body, credentials, followRedirects, tls, signal, agent);
  } finally {
    agent.destroy();
  }
}

/** Sends the NTLM NEGOTIATE, then the AUTHENTICATE answering the server's CHALLENGE. */
async function sendNtlm(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  credentials: { username: string; password: string },
  tls: TlsOptions,
  signal: AbortSignal,
  agent: http.Agent,
): Promise<HttpResponse> {
  const first = await sendOnce(
    url,
    method,
    { ...headers, authorization: `NTLM ${negotiateMessage()}` },
    body,
    tls,
    signal,
    agent,
  );
  if (first.status !== 401) return first;
  const challenge = parseChallengeHeader(first.headers['www-authenticate']);
  if (!challenge) return first;
  return sendOnce(
    url,
    method,
    { ...headers, authorization: `NTLM ${authenticateMessage(challenge, credentials)}` },
    body,
    tls,
    signal,
    agent,
  );
}

async function exchangeOn(
  start: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  credentials: { username: string; password: string; ntlm?: boolean },
  followRedirects: boolean,
  tls: TlsOptions,
  signal: AbortSignal,
  agent: http.Agent | false,
): Promise<Exchange> {
  let url = start;
  let currentMethod = method;
  let currentBody = body;
  const currentHeaders = { ...headers };
  const redirects: string[] = [];
  let digestTried = false;
  for (;;) {
    const response =
      agent && credentials.ntlm
        ? await sendNtlm(url, currentMethod, currentHeaders, currentBody, credentials, tls, signal, agent)
        : await sendOnce(url, currentMethod, currentHeaders, currentBody, tls, signal);
    if (
      !credentials.ntlm &&
      response.status === 401 &&
      !digestTried &&
      (credentials.username !== '' || credentials.password !== '')
    ) {
      const challenge = parseDigestChallenge(response.headers['www-authenticate']);
      if (challenge) {
        digestTried = true;
        currentHeaders.authorization = digestAuthorization(challenge, {
          method: currentMethod,
          uri: `${url.pathname}${url.search}`,
          username: credentials.username,
          password: credentials.password,
        });
        continue;
      }
    }
    const location = response.headers.location;
    if (!followRedirects || !REDIRECT_STATUSES.has(response.status) || typeof location !== 'string') {
      return { response, finalUrl: url, redirects };
    }
    if (redirects.length >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw new Error(`refusing to follow a redirect to ${next.protocol}`);
    if (next.host !== url.host) delete currentHeaders.authorization;
    // As browsers and Go do: 303 (and 301/302 after POST) turn into a GET without a body.
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && currentMethod === 'POST')
    ) {
      if (currentMethod !== 'HEAD') currentMethod = 'GET';
      currentBody = undefined;
    }
    redirects.push(sanitizeUrl(next.toString()));
    url = next;
    digestTried = false;
  }
}

function headerMap(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const canonical = name.replace(
      /(^|-)([a-z])/g,
      (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
    );
    out[canonical] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

const DAY_MS = 86_400_000;

async function runHttpCheck(spec: HttpCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  if (spec.endpoint && spec.url) return invalidResult('cannot specify both endpoint and url');
  const details = await resolveConnectionDetails({ ...spec, url: spec.url ?? spec.endpoint }, ctx);
  if (details.url === '') return invalidResult('no url or connection specified');
  const properties = details.connection?.properties ?? {};
  // The ecosystem answers both `ntlm` and `ntlmv2` with an NTLMv2 response (ntlm.ts).
  const ntlm = Boolean(
    spec.ntlm || spec.ntlmv2 || properties.ntlm === 'true' || properties.ntlmv2 === 'true',
  );
  if (spec.crawl) return invalidResult('crawling is not supported yet');

  const templateEnv: Record<string, unknown> = {
    canary: ctx.canary,
    check: { name: spec.name, description: spec.description ?? '', labels: spec.labels ?? {} },
    url: details.url,
    username: details.username,
    password: details.password,
    properties,
  };
  for (const variable of spec.env ?? []) {
    templateEnv[variable.name] = (await resolveValue(variable, ctx, `env.${variable.name}`)) ?? '';
  }

  templateEnv.last_result = ctx.lastResult ?? {};
  let rawUrl = details.url;
  if (rawUrl.includes('{{') || rawUrl.includes('$(')) {
    await loadExpressions();
    try {
      rawUrl = renderField(rawUrl, templateEnv, 'url');
    } catch (error) {
      return invalidResult(errorText(error));
    }
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return invalidResult(`invalid url '${sanitizeUrl(rawUrl)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return invalidResult(`invalid url, the scheme must be http or https '${sanitizeUrl(rawUrl)}'`);
  }
  const displayUrl = sanitizeUrl(url.toString());

  let bodyText = spec.body;
  if (bodyText !== undefined && spec.templateBody) {
    try {
      bodyText = (await loadExpressions()).renderTemplate(bodyText, templateEnv);
    } catch (error) {
      return invalidResult(`failed to template request body: ${errorText(error)}`);
    }
  }
  const method = (spec.method ?? 'GET').toUpperCase();
  const headers: Record<string, string> = { 'user-agent': spec.userAgent ?? DEFAULT_USER_AGENT };
  for (const header of spec.headers ?? []) {
    headers[header.name.toLowerCase()] = (await resolveValue(header, ctx, `headers.${header.name}`)) ?? '';
  }
  // Credentials in the URL itself are sent the same way as configured ones.
  const username = details.username || decodeURIComponent(url.username);
  const password = details.password || decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  if (ntlm && spec.oauth2) return invalidResult('ntlm cannot be combined with oauth2');
  if (ntlm && username === '') return invalidResult('ntlm: username is required (DOMAIN\\user or user)');
  if (!ntlm && (username !== '' || password !== '') && headers.authorization === undefined) {
    headers.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }

  const tlsConfig = spec.tlsConfig;
  const tls: TlsOptions = {
    rejectUnauthorized: !(tlsConfig?.insecureSkipVerify ?? details.connection?.insecureTls ?? false),
    ca: await resolveValue(tlsConfig?.ca, ctx, 'tlsConfig.ca'),
    cert: await resolveValue(tlsConfig?.cert, ctx, 'tlsConfig.cert'),
    key: await resolveValue(tlsConfig?.key, ctx, 'tlsConfig.key'),
  };

  const requestBody = bodyText === undefined || bodyText === '' ? undefined : Buffer.from(bodyText, 'utf8');
  if (spec.oauth2) {
    const oauth2 = spec.oauth2;
    const tokenUrl = oauth2.tokenURL ?? '';
    if (tokenUrl === '') return invalidResult('oauth2: tokenURL is required');
    try {
      const token = await fetchClientCredentialsToken(
        {
          clientId: (await resolveValue(oauth2.clientID, ctx, 'oauth2.clientID')) ?? '',
          clientSecret: (await resolveValue(oauth2.clientSecret, ctx, 'oauth2.clientSecret')) ?? '',
          tokenUrl,
          scopes: oauth2.scopes ?? [],
          params: oauth2.params ?? {},
        },
        ctx.signal,
      );
      headers.authorization = `Bearer ${token}`;
    } catch (error) {
      return failing(passing({ duration: 0 }), errorText(error));
    }
  }
  if (spec.awsSigV4) {
    const aws = spec.awsSigV4;
    if (aws.assumeRole)
      return invalidResult('awsSigV4: assumeRole is not supported; give accessKey and secretKey');
    let credentials: SigV4Credentials;
    try {
      let accessKey = await resolveValue(aws.accessKey, ctx, 'awsSigV4.accessKey');
      let secretKey = await resolveValue(aws.secretKey, ctx, 'awsSigV4.secretKey');
      if (aws.connection) {
        const connection = await ctx.resolveConnection(aws.connection);
        if (!connection) return invalidResult(`awsSigV4: connection ${aws.connection} not found`);
        accessKey ||= connection.username;
        secretKey ||= connection.password;
      }
      const region = aws.region ?? '';
      const service = aws.service ?? '';
      if (!accessKey || !secretKey) return invalidResult('awsSigV4: accessKey and secretKey are required');
      if (region === '' || service === '') return invalidResult('awsSigV4: region and service are required');
      credentials = {
        accessKey,
        secretKey,
        sessionToken: await resolveValue(aws.sessionToken, ctx, 'awsSigV4.sessionToken'),
        region,
        service,
      };
    } catch (error) {
      return invalidResult(errorText(error));
    }
    // The signature covers the request as sent: no basic or digest credentials beside it.
    if (username !== '' || password !== '')
      return invalidResult('awsSigV4 cannot be combined with username/password');
    signRequest({ method, url, headers, body: requestBody }, credentials);
  }

  const responseCodes = spec.responseCodes ?? [];
  const followRedirects = !responseCodes.some((code) => code >= 300 && code < 400);
  const started = performance.now();
  let result: Exchange;
  try {
    result = await exchange(
      url,
      method,
      headers,
      requestBody,
      { username, password, ntlm },
      followRedirects,
      tls,
      ctx.signal,
    );
  } catch (error) {
    const reason = ctx.signal.aborted
      ? `request to ${displayUrl} timed out after ${ctx.timeoutMs}ms`
      : errorText(error);
    return failing(passing({ duration: elapsedSince(started) }), reason);
  }
  const elapsed = elapsedSince(started);
  const { response } = result;
  const status = response.status;
  const content = response.body.toString('utf8');
  const responseHeaders = headerMap(response.headers);
  const sslAge =
    response.certificateValidTo && !Number.isNaN(response.certificateValidTo.getTime())
      ? response.certificateValidTo.getTime() - Date.now()
      : null;

  let json: JsonValue = {};
  const contentType = String(response.headers['content-type'] ?? '');
  let jsonError: string | undefined;
  if (contentType.includes('json')) {
    try {
      json = JSON.parse(content) as JsonValue;
    } catch (error) {
      jsonError = `invalid json response: ${errorText(error)}`;
    }
  }

  let outcome = passing({
    duration: elapsed,
    data: { code: status, headers: responseHeaders, content, json, elapsed, sslAge },
    durations: ['elapsed', 'sslAge'],
    detail: {
      code: status,
      url: sanitizeUrl(result.finalUrl.toString()),
      headers: responseHeaders,
      redirects: result.redirects,
      contentLength: response.body.length,
      truncated: response.truncated,
      sslExpiry: response.certificateValidTo?.toISOString() ?? null,
    },
    metrics: [
      { name: 'response_code', type: 'counter', value: 1, labels: { code: String(status), url: displayUrl } },
      ...(sslAge === null
        ? []
        : [
            {
              name: 'ssl_expiry_days',
              type: 'gauge' as const,
              value: sslAge / DAY_MS,
              labels: { url: displayUrl },
            },
          ]),
    ],
  });

  if (jsonError && !spec.test) return failing(outcome, jsonError);
  const codeOk = responseCodes.length === 0 ? status >= 200 && status < 300 : responseCodes.includes(status);
  if (!codeOk) {
    return failing(
      outcome,
      responseCodes.length === 0
        ? `expected ${status} to be 200..299`
        : `expected ${status} to be in [${responseCodes.join(' ')}]`,
    );
  }
  if (spec.thresholdMillis !== undefined && spec.thresholdMillis > 0 && elapsed > spec.thresholdMillis) {
    return failing(outcome, `threshold exceeded ${formatAge(elapsed)} > ${spec.thresholdMillis}ms`);
  }
  if (
    spec.responseContent !== undefined &&
    spec.responseContent !== '' &&
    !content.includes(spec.responseContent)
  ) {
    return failing(outcome, `expected ${spec.responseContent}, found ${truncate(content, 100)}`);
  }
  if (spec.maxSSLExpiry !== undefined && spec.maxSSLExpiry > 0) {
    if (sslAge === null) return failing(outcome, 'No certificate found to check age');
    if (sslAge < spec.maxSSLExpiry * DAY_MS) {
      return failing(
        outcome,
        sslAge <= 0
          ? `SSL certificate expired ${formatAge(-sslAge)} ago`
          : `SSL certificate expires soon: in ${formatAge(sslAge)}, less than ${spec.maxSSLExpiry} days`,
      );
    }
  }
  if (spec.responseJSONContent) {
    const { path, value } = spec.responseJSONContent;
    const { queryJsonPath, stringifyResult } = await loadExpressions();
    let found: JsonValue[];
    try {
      found = queryJsonPath(path, json);
    } catch (error) {
      return invalidResult(errorText(error), { duration: elapsed, data: outcome.data });
    }
    const actual = found.length === 0 ? undefined : stringifyResult(found[0]);
    if (actual !== value) {
      outcome = failing(
        outcome,
        `expected ${path} to be ${value}, found ${actual === undefined ? 'nothing' : truncate(actual, 100)}`,
      );
    }
  }
  return outcome;
}

export const httpCheck: CheckType<HttpCheckSpec> = {
  type: 'http',
  specKey: 'http',
  selfTemplatedFields: ['url', 'endpoint'],
  schema: httpSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(httpSpecSchema, raw, 'http');
    if (spec.tlsConfig?.handshakeTimeout) parseDuration(spec.tlsConfig.handshakeTimeout);
    if (spec.url === undefined && spec.endpoint === undefined && spec.connection === undefined) {
      throw new CheckSpecError('invalid http check: url: a url or a connection is required');
    }
    return spec;
  },
  endpoint: (spec) => sanitizeUrl(spec.url ?? spec.endpoint ?? spec.connection ?? ''),
  run: runHttpCheck,
};
