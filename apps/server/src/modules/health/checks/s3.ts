/**
 * `s3` (the ecosystem's S3 protocol check) against any S3-compatible endpoint (AWS, MinIO, Ceph,
 * EMC ECS): lists the bucket (read permission), puts a random object at `objectPath` (write), then
 * gets it back and compares it (get). Requests are signed with SigV4 (`aws-sigv4.ts`).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { z } from 'zod';
import { signRequest } from './aws-sigv4.js';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import {
  baseSpecShape,
  booleanField,
  parseSpec,
  resolveValue,
  sanitizeUrl,
  textField,
  valueSourceField,
} from './spec-fields.js';
import { type CheckContext, type CheckResult, type CheckType } from './types.js';

const bucketSchema = z.looseObject({
  name: textField.pipe(z.string().min(1, 'a bucket name is required')),
  region: textField.optional(),
  endpoint: textField.optional(),
});

const s3FieldsSchema = z.looseObject({
  ...baseSpecShape,
  bucketName: textField.pipe(z.string().min(1, 'a bucket name is required')).optional(),
  /** The older form: `bucket: {name, region, endpoint}` (always addressed path style). */
  bucket: bucketSchema.optional(),
  objectPath: textField.pipe(z.string().min(1, 'an object path is required')),
  connection: textField.optional(),
  accessKey: valueSourceField.optional(),
  secretKey: valueSourceField.optional(),
  sessionToken: valueSourceField.optional(),
  region: textField.optional(),
  endpoint: textField.optional(),
  skipTLSVerify: booleanField.optional(),
  usePathStyle: booleanField.optional(),
});
const s3SpecSchema = s3FieldsSchema.superRefine((spec, context) => {
  if (spec.bucketName === undefined && spec.bucket === undefined)
    context.addIssue({ code: 'custom', path: ['bucketName'], message: 'a bucket name is required' });
});
export type S3CheckSpec = z.infer<typeof s3SpecSchema>;

function bucketOf(spec: S3CheckSpec): string {
  return spec.bucketName ?? spec.bucket?.name ?? '';
}

const MAX_BODY_BYTES = 1024 * 1024;

interface S3Response {
  status: number;
  body: Buffer;
}

/** The `<Code>` and `<Message>` of an S3 error document, or the status. */
function s3Error(response: S3Response): string {
  const text = response.body.toString('utf8');
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  if (code) return message ? `${code}: ${message}` : code;
  return `HTTP ${response.status}`;
}

function defaultEndpoint(region: string): string {
  return region === 'us-east-1' ? 'https://s3.amazonaws.com' : `https://s3.${region}.amazonaws.com`;
}

/** The object (or bucket, when `key` is empty) URL, path style or virtual-hosted style. */
export function s3Url(endpoint: string, bucket: string, key: string, pathStyle: boolean): URL {
  const base = new URL(endpoint);
  const encodedKey = key
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  const prefix = base.pathname.replace(/\/+$/, '');
  if (pathStyle) {
    base.pathname = `${prefix}/${encodeURIComponent(bucket)}/${encodedKey}`;
  } else {
    base.hostname = `${bucket}.${base.hostname}`;
    base.pathname = `${prefix}/${encodedKey}`;
  }
  return base;
}

async function runS3Check(spec: S3CheckSpec, ctx: CheckContext): Promise<CheckResult> {
  let accessKey: string | undefined;
  let secretKey: string | undefined;
  let sessionToken: string | undefined;
  let region = spec.region ?? spec.bucket?.region ?? '';
  let endpoint = spec.endpoint ?? spec.bucket?.endpoint ?? '';
  try {
    accessKey = await resolveValue(spec.accessKey, ctx, 'accessKey');
    secretKey = await resolveValue(spec.secretKey, ctx, 'secretKey');
    sessionToken = await resolveValue(spec.sessionToken, ctx, 'sessionToken');
    if (spec.connection) {
      if (spec.accessKey !== undefined || spec.secretKey !== undefined)
        return invalidResult('connection is mutually exclusive with accessKey and secretKey');
      const connection = await ctx.resolveConnection(spec.connection);
      if (!connection) return invalidResult(`connection ${spec.connection} not found`);
      accessKey = connection.username;
      secretKey = connection.password;
      region ||= connection.properties?.region ?? '';
      endpoint ||= connection.url ?? '';
    }
  } catch (error) {
    return invalidResult(errorText(error));
  }
  if (!accessKey || !secretKey) return invalidResult('accessKey and secretKey are required');
  region ||= 'us-east-1';
  endpoint ||= defaultEndpoint(region);
  let endpointUrl: URL;
  try {
    endpointUrl = new URL(endpoint);
  } catch {
    return invalidResult(`invalid endpoint '${sanitizeUrl(endpoint)}'`);
  }
  if (endpointUrl.protocol !== 'http:' && endpointUrl.protocol !== 'https:')
    return invalidResult(`invalid endpoint, the scheme must be http or https '${sanitizeUrl(endpoint)}'`);
  // Virtual-hosted buckets need a DNS name: an IP endpoint is addressed path style, as SDKs do.
  const pathStyle =
    spec.usePathStyle === true ||
    (spec.bucketName === undefined && spec.bucket !== undefined) ||
    isIP(endpointUrl.hostname.replace(/^\[|\]$/g, '')) !== 0;
  const credentials = { accessKey, secretKey, sessionToken, region, service: 's3' };
  const insecure = spec.skipTLSVerify === true;
  const httpRequest = endpointUrl.protocol === 'https:' ? https.request : http.request;

  const send = (method: string, url: URL, body?: Buffer): Promise<S3Response> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-length'] = String(body.length);
    signRequest({ method, url, headers, body }, credentials);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        url,
        { method, headers, signal: ctx.signal, agent: false, rejectUnauthorized: !insecure },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= MAX_BODY_BYTES) chunks.push(chunk);
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };

  const bucket = bucketOf(spec);
  const where = `s3://${bucket}/${spec.objectPath}`;
  const timings: Record<string, number> = {};
  const started = performance.now();
  const step = async (name: string, method: string, url: URL, body?: Buffer): Promise<S3Response> => {
    const at = performance.now();
    try {
      return await send(method, url, body);
    } finally {
      timings[name] = elapsedSince(at);
    }
  };
  const result = (init: Partial<CheckResult> = {}) =>
    passing({
      duration: elapsedSince(started),
      data: { bucket, objectPath: spec.objectPath, endpoint: sanitizeUrl(endpointUrl.toString()), timings },
      detail: { bucket, objectPath: spec.objectPath, timings },
      ...init,
    });
  try {
    const listUrl = s3Url(endpoint, bucket, '', pathStyle);
    listUrl.searchParams.set('max-keys', '1');
    const listed = await step('list', 'GET', listUrl);
    if (listed.status !== 200)
      return failing(result(), `Failed to list objects in bucket ${bucket}: ${s3Error(listed)}`);

    const objectUrl = s3Url(endpoint, bucket, spec.objectPath, pathStyle);
    const data = Buffer.from(randomBytes(12).toString('hex'));
    const put = await step('put', 'PUT', objectUrl, data);
    if (put.status !== 200) return failing(result(), `Failed to put object ${where}: ${s3Error(put)}`);

    const got = await step('get', 'GET', objectUrl);
    if (got.status !== 200) return failing(result(), `Failed to get object ${where}: ${s3Error(got)}`);
    if (!got.body.equals(data))
      return failing(
        result(),
        `Get object ${where} returned unexpected content: wrote ${data.length} bytes, read ${got.body.length}`,
      );
  } catch (error) {
    const reason = ctx.signal.aborted
      ? `s3 check of ${where} timed out after ${ctx.timeoutMs}ms`
      : `s3 check of ${where} failed: ${errorText(error)}`;
    return failing(result(), reason);
  }
  return result({
    metrics: Object.entries(timings).map(([operation, milliseconds]) => ({
      name: 's3_operation_seconds',
      type: 'histogram' as const,
      value: milliseconds / 1000,
      labels: { operation, bucket, endpoint: sanitizeUrl(endpointUrl.origin) },
    })),
  });
}

export const s3Check: CheckType<S3CheckSpec> = {
  type: 's3',
  specKey: 's3',
  schema: s3SpecSchema,
  parse: (raw) => parseSpec(s3SpecSchema, raw, 's3'),
  endpoint: (spec) => `s3://${bucketOf(spec)}/${spec.objectPath}`,
  run: runS3Check,
};
