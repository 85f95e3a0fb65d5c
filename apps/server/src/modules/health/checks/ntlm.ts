/**
 * NTLM over HTTP for the http check's `ntlm` / `ntlmv2` (the ecosystem's checker answers both with
 * an NTLMv2 response), written from Microsoft's MS-NLMP: a NEGOTIATE message, the server's
 * CHALLENGE, and an AUTHENTICATE message carrying the NTLMv2 and LMv2 responses. MD4 (which
 * OpenSSL 3 no longer offers by default) is written here from RFC 1320.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SIGNATURE = Buffer.from('NTLMSSP\0', 'latin1');

/** Negotiate flags (MS-NLMP 2.2.2.5) this client asks for. */
const NEGOTIATE_UNICODE = 0x00000001;
const REQUEST_TARGET = 0x00000004;
const NEGOTIATE_NTLM = 0x00000200;
const NEGOTIATE_ALWAYS_SIGN = 0x00008000;
const NEGOTIATE_EXTENDED_SESSIONSECURITY = 0x00080000;
const NEGOTIATE_TARGET_INFO = 0x00800000;
const NEGOTIATE_128 = 0x20000000;
const NEGOTIATE_56 = 0x80000000;

const CLIENT_FLAGS =
  (NEGOTIATE_UNICODE |
    REQUEST_TARGET |
    NEGOTIATE_NTLM |
    NEGOTIATE_ALWAYS_SIGN |
    NEGOTIATE_EXTENDED_SESSIONSECURITY |
    NEGOTIATE_TARGET_INFO |
    NEGOTIATE_128 |
    NEGOTIATE_56) >>>
  0;

// ---- MD4 (RFC 1320) -------------------------------------------------------------------------

function rotl(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}

/** MD4 of `data` (RFC 1320), for NTOWF's hash of the password. */
export function md4(data: Buffer): Buffer {
  const bitLength = data.length * 8;
  const padded = Buffer.alloc((((data.length + 8) >> 6) + 1) * 64);
  data.copy(padded);
  padded[data.length] = 0x80;
  padded.writeUInt32LE(bitLength >>> 0, padded.length - 8);
  padded.writeUInt32LE(Math.floor(bitLength / 0x100000000), padded.length - 4);
  let a = 0x67452301;
  let b = 0xefcdab89;
  let c = 0x98badcfe;
  let d = 0x10325476;
  const x = new Array<number>(16);
  const f = (p: number, q: number, r: number) => (p & q) | (~p & r);
  const g = (p: number, q: number, r: number) => (p & q) | (p & r) | (q & r);
  const h = (p: number, q: number, r: number) => p ^ q ^ r;
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i += 1) x[i] = padded.readUInt32LE(offset + i * 4);
    const [aa, bb, cc, dd] = [a, b, c, d];
    // Round 1: [abcd k s] a = (a + F(b,c,d) + X[k]) <<< s
    for (const k of [0, 4, 8, 12]) {
      a = rotl((a + f(b, c, d) + x[k]) >>> 0, 3);
      d = rotl((d + f(a, b, c) + x[k + 1]) >>> 0, 7);
      c = rotl((c + f(d, a, b) + x[k + 2]) >>> 0, 11);
      b = rotl((b + f(c, d, a) + x[k + 3]) >>> 0, 19);
    }
    // Round 2: a = (a + G(b,c,d) + X[k] + 5A827999) <<< s
    for (const k of [0, 1, 2, 3]) {
      a = rotl((a + g(b, c, d) + x[k] + 0x5a827999) >>> 0, 3);
      d = rotl((d + g(a, b, c) + x[k + 4] + 0x5a827999) >>> 0, 5);
      c = rotl((c + g(d, a, b) + x[k + 8] + 0x5a827999) >>> 0, 9);
      b = rotl((b + g(c, d, a) + x[k + 12] + 0x5a827999) >>> 0, 13);
    }
    // Round 3: a = (a + H(b,c,d) + X[k] + 6ED9EBA1) <<< s
    for (const k of [0, 2, 1, 3]) {
      a = rotl((a + h(b, c, d) + x[k] + 0x6ed9eba1) >>> 0, 3);
      d = rotl((d + h(a, b, c) + x[k + 8] + 0x6ed9eba1) >>> 0, 9);
      c = rotl((c + h(d, a, b) + x[k + 4] + 0x6ed9eba1) >>> 0, 11);
      b = rotl((b + h(c, d, a) + x[k + 12] + 0x6ed9eba1) >>> 0, 15);
    }
    a = (a + aa) >>> 0;
    b = (b + bb) >>> 0;
    c = (c + cc) >>> 0;
    d = (d + dd) >>> 0;
  }
  const out = Buffer.alloc(16);
  out.writeUInt32LE(a, 0);
  out.writeUInt32LE(b, 4);
  out.writeUInt32LE(c, 8);
  out.writeUInt32LE(d, 12);
  return out;
}

// ---- NTLMv2 (MS-NLMP 3.3.2) -----------------------------------------------------------------

function hmacMd5(key: Buffer, ...parts: Buffer[]): Buffer {
  const mac = createHmac('md5', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function utf16(text: string): Buffer {
  return Buffer.from(text, 'utf16le');
}

/** NTOWFv2 = HMAC_MD5(MD4(UNICODE(password)), UNICODE(Uppercase(user) + domain)). */
export function ntowfv2(password: string, user: string, domain: string): Buffer {
  return hmacMd5(md4(utf16(password)), utf16(user.toUpperCase() + domain));
}

export interface Ntlmv2Responses {
  ntChallengeResponse: Buffer;
  lmChallengeResponse: Buffer;
  ntProofStr: Buffer;
  sessionBaseKey: Buffer;
}

/**
 * The NTLMv2 and LMv2 responses (MS-NLMP 3.3.2) to a server challenge: `time` is the FILETIME
 * (100 ns since 1601) as 8 little-endian bytes, `targetInfo` the CHALLENGE's AV pairs.
 */
export function ntlmv2Responses(input: {
  user: string;
  domain: string;
  password: string;
  serverChallenge: Buffer;
  clientChallenge: Buffer;
  time: Buffer;
  targetInfo: Buffer;
}): Ntlmv2Responses {
  const key = ntowfv2(input.password, input.user, input.domain);
  const temp = Buffer.concat([
    Buffer.from([1, 1, 0, 0, 0, 0, 0, 0]),
    input.time,
    input.clientChallenge,
    Buffer.alloc(4),
    input.targetInfo,
    Buffer.alloc(4),
  ]);
  const ntProofStr = hmacMd5(key, input.serverChallenge, temp);
  return {
    ntProofStr,
    ntChallengeResponse: Buffer.concat([ntProofStr, temp]),
    lmChallengeResponse: Buffer.concat([
      hmacMd5(key, input.serverChallenge, input.clientChallenge),
      input.clientChallenge,
    ]),
    sessionBaseKey: hmacMd5(key, ntProofStr),
  };
}

/** Now as a FILETIME: 100 ns intervals since 1601-01-01, 8 bytes little-endian. */
function fileTimeNow(): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE((BigInt(Date.now()) + 11_644_473_600_000n) * 10_000n);
  return out;
}

// ---- Messages (MS-NLMP 2.2.1) ---------------------------------------------------------------

/** The NEGOTIATE message (type 1), base64 as it goes after `NTLM ` in the Authorization header. */
export function negotiateMessage(): string {
  const message = Buffer.alloc(32);
  SIGNATURE.copy(message, 0);
  message.writeUInt32LE(1, 8);
  message.writeUInt32LE(CLIENT_FLAGS, 12);
  // Empty domain and workstation fields, pointing at the end of the message.
  message.writeUInt32LE(0, 16);
  message.writeUInt32LE(32, 20);
  message.writeUInt32LE(0, 24);
  message.writeUInt32LE(32, 28);
  return message.toString('base64');
}

export interface NtlmChallenge {
  flags: number;
  serverChallenge: Buffer;
  targetInfo: Buffer;
}

function field(message: Buffer, at: number): Buffer {
  const length = message.readUInt16LE(at);
  const offset = message.readUInt32LE(at + 4);
  if (offset + length > message.length) throw new Error('NTLM challenge: a field lies outside the message');
  return message.subarray(offset, offset + length);
}

/** The CHALLENGE message (type 2) of a `WWW-Authenticate: NTLM <base64>` header, or undefined. */
export function parseChallengeHeader(header: string | string[] | undefined): NtlmChallenge | undefined {
  const values = Array.isArray(header) ? header : header === undefined ? [] : header.split(/,\s*(?=NTLM\b)/);
  for (const value of values) {
    const match = /^\s*NTLM\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
    if (!match) continue;
    const message = Buffer.from(match[1], 'base64');
    if (message.length < 32 || !message.subarray(0, 8).equals(SIGNATURE) || message.readUInt32LE(8) !== 2)
      throw new Error('the server sent an NTLM header that is not a CHALLENGE message');
    const flags = message.readUInt32LE(20);
    return {
      flags,
      serverChallenge: Buffer.from(message.subarray(24, 32)),
      targetInfo: message.length >= 48 ? Buffer.from(field(message, 40)) : Buffer.alloc(0),
    };
  }
  return undefined;
}

/** `DOMAIN\user` and `user@domain` as the ecosystem's client splits them. */
export function splitNtlmUser(username: string): { user: string; domain: string } {
  const slash = username.indexOf('\\');
  if (slash >= 0) return { domain: username.slice(0, slash), user: username.slice(slash + 1) };
  return { user: username, domain: '' };
}

/** The AUTHENTICATE message (type 3) answering `challenge`, base64. */
export function authenticateMessage(
  challenge: NtlmChallenge,
  credentials: { username: string; password: string; workstation?: string },
  random: { clientChallenge?: Buffer; time?: Buffer } = {},
): string {
  const { user, domain } = splitNtlmUser(credentials.username);
  const responses = ntlmv2Responses({
    user,
    domain,
    password: credentials.password,
    serverChallenge: challenge.serverChallenge,
    clientChallenge: random.clientChallenge ?? randomBytes(8),
    time: random.time ?? fileTimeNow(),
    targetInfo: challenge.targetInfo,
  });
  const payloads = [
    responses.lmChallengeResponse,
    responses.ntChallengeResponse,
    utf16(domain),
    utf16(user),
    utf16(credentials.workstation ?? ''),
    Buffer.alloc(0),
  ];
  const headerLength = 64;
  const header = Buffer.alloc(headerLength);
  SIGNATURE.copy(header, 0);
  header.writeUInt32LE(3, 8);
  let offset = headerLength;
  payloads.forEach((payload, index) => {
    const at = 12 + index * 8;
    header.writeUInt16LE(payload.length, at);
    header.writeUInt16LE(payload.length, at + 2);
    header.writeUInt32LE(offset, at + 4);
    offset += payload.length;
  });
  const flags = (CLIENT_FLAGS & (challenge.flags | NEGOTIATE_UNICODE)) >>> 0;
  header.writeUInt32LE(flags, 60);
  return Buffer.concat([header, ...payloads]).toString('base64');
}

/** What a server learns from an AUTHENTICATE message (tests' NTLM servers read it with this). */
export function parseAuthenticateMessage(base64: string): {
  user: string;
  domain: string;
  workstation: string;
  ntChallengeResponse: Buffer;
  lmChallengeResponse: Buffer;
} {
  const message = Buffer.from(base64, 'base64');
  if (message.length < 64 || !message.subarray(0, 8).equals(SIGNATURE) || message.readUInt32LE(8) !== 3)
    throw new Error('not an NTLM AUTHENTICATE message');
  return {
    lmChallengeResponse: field(message, 12),
    ntChallengeResponse: field(message, 20),
    domain: field(message, 28).toString('utf16le'),
    user: field(message, 36).toString('utf16le'),
    workstation: field(message, 44).toString('utf16le'),
  };
}

/**
 * Whether an NTLMv2 response answers `serverChallenge` for this password (what a server or
 * domain controller computes): the proof is recomputed from the response's own blob.
 */
export function verifyNtlmv2Response(
  response: { user: string; domain: string; ntChallengeResponse: Buffer },
  password: string,
  serverChallenge: Buffer,
): boolean {
  if (response.ntChallengeResponse.length < 16 + 28) return false;
  const key = ntowfv2(password, response.user, response.domain);
  const blob = response.ntChallengeResponse.subarray(16);
  const expected = hmacMd5(key, serverChallenge, blob);
  return expected.equals(response.ntChallengeResponse.subarray(0, 16));
}
