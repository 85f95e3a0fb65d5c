/**
 * AWS Signature Version 4 for the http check's `awsSigV4` (requests to API Gateway, OpenSearch,
 * S3 and other AWS endpoints), written against AWS's published algorithm with node:crypto.
 */
import { createHash, createHmac } from 'node:crypto';

export interface SigV4Credentials {
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
  region: string;
  service: string;
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept, everything else %XX). */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalPath(pathname: string, service: string): string {
  if (pathname === '') return '/';
  const segments = pathname.split('/').map((segment) => encodeRfc3986(decodeURIComponent(segment)));
  const once = segments.join('/');
  // Every service but S3 signs the path encoded twice.
  return service === 's3'
    ? once
    : once
        .split('/')
        .map((segment) => encodeRfc3986(segment))
        .join('/');
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams.entries()].map(([key, value]) => [
    encodeRfc3986(key),
    encodeRfc3986(value),
  ]);
  pairs.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1));
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

/** `20150830T123600Z` */
export function amzDate(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * Adds `x-amz-date`, `x-amz-content-sha256`, the session token when there is one, and the
 * `authorization` header to `headers` (lower-case names), signing every header present.
 */
export function signRequest(
  request: { method: string; url: URL; headers: Record<string, string>; body?: Buffer },
  credentials: SigV4Credentials,
  at: Date = new Date(),
): void {
  const { headers } = request;
  const stamp = amzDate(at);
  const day = stamp.slice(0, 8);
  const payloadHash = sha256Hex(request.body ?? '');
  headers.host = request.url.host;
  headers['x-amz-date'] = stamp;
  if (credentials.service === 's3') headers['x-amz-content-sha256'] = payloadHash;
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  delete headers.authorization;
  const names = Object.keys(headers)
    .map((name) => name.toLowerCase())
    .sort();
  const canonicalHeaders = names
    .map((name) => `${name}:${String(headers[name]).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(request.url.pathname, credentials.service),
    canonicalQuery(request.url),
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${credentials.region}/${credentials.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretKey}`, day), credentials.region), credentials.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
