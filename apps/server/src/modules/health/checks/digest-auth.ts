import { createHash, randomBytes } from 'node:crypto';

/** A parsed `WWW-Authenticate: Digest ...` challenge (RFC 7616). */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  qop?: string;
  opaque?: string;
  algorithm: string;
}

/** Splits an auth-param list, honouring quoted strings with escapes. */
function parseParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (const match of text.matchAll(pattern)) {
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
    params.set(match[1].toLowerCase(), value);
  }
  return params;
}

/** The Digest challenge among a response's WWW-Authenticate headers, if there is one. */
export function parseDigestChallenge(headers: string | string[] | undefined): DigestChallenge | undefined {
  const values = headers === undefined ? [] : Array.isArray(headers) ? headers : [headers];
  for (const value of values) {
    const match = /(?:^|,)\s*Digest\s+(.*)$/i.exec(value);
    if (!match) continue;
    const params = parseParams(match[1]);
    const realm = params.get('realm');
    const nonce = params.get('nonce');
    if (realm === undefined || nonce === undefined) continue;
    return {
      realm,
      nonce,
      qop: params.get('qop'),
      opaque: params.get('opaque'),
      algorithm: params.get('algorithm') ?? 'MD5',
    };
  }
  return undefined;
}

function hashFor(algorithm: string): (text: string) => string {
  const base = algorithm.toUpperCase().replace(/-SESS$/, '');
  const name = base === 'SHA-256' ? 'sha256' : base === 'SHA-512-256' ? 'sha512-256' : 'md5';
  return (text) => createHash(name).update(text).digest('hex');
}

function quote(text: string): string {
  return `"${text.replace(/(["\\])/g, '\\$1')}"`;
}

/**
 * The Authorization header answering a Digest challenge for one request. `cnonce` is injectable
 * so the computation can be checked against the RFC's worked examples.
 */
export function digestAuthorization(
  challenge: DigestChallenge,
  request: { method: string; uri: string; username: string; password: string },
  cnonce: string = randomBytes(16).toString('hex'),
  nonceCount = 1,
): string {
  const hash = hashFor(challenge.algorithm);
  const nc = nonceCount.toString(16).padStart(8, '0');
  const qops = (challenge.qop ?? '').split(',').map((item) => item.trim().toLowerCase());
  const qop = qops.includes('auth') ? 'auth' : undefined;
  let ha1 = hash(`${request.username}:${challenge.realm}:${request.password}`);
  if (/-sess$/i.test(challenge.algorithm)) ha1 = hash(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = hash(`${request.method.toUpperCase()}:${request.uri}`);
  const response = qop
    ? hash(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
    : hash(`${ha1}:${challenge.nonce}:${ha2}`);
  const parts = [
    `username=${quote(request.username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(request.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quote(response)}`,
  ];
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}
