import net from 'node:net';
import tls from 'node:tls';

/**
 * Just enough of LDAPv3 (RFC 4511) for a health check: a simple bind and a subtree search, with
 * BER encoding written out by hand and RFC 4515 string filters.
 */

// --- BER ---------------------------------------------------------------------------------------

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  let rest = length;
  while (rest > 0) {
    bytes.unshift(rest & 0xff);
    rest = Math.floor(rest / 256);
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

function octets(tag: number, text: string | Buffer): Buffer {
  return tlv(tag, typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
}

function integer(tag: number, value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  do {
    bytes.unshift(rest & 0xff);
    rest = Math.floor(rest / 256);
  } while (rest > 0);
  if (bytes[0] & 0x80) bytes.unshift(0);
  return tlv(tag, Buffer.from(bytes));
}

const TAG = {
  integer: 0x02,
  octetString: 0x04,
  enumerated: 0x0a,
  boolean: 0x01,
  sequence: 0x30,
  set: 0x31,
  bindRequest: 0x60,
  bindResponse: 0x61,
  unbindRequest: 0x42,
  searchRequest: 0x63,
  searchResultEntry: 0x64,
  searchResultDone: 0x65,
  searchResultReference: 0x73,
  simpleAuth: 0x80,
} as const;

interface Element {
  tag: number;
  content: Buffer;
}

/** The element at `offset`, or undefined when the buffer does not hold all of it yet. */
function readElement(buffer: Buffer, offset: number): { element: Element; next: number } | undefined {
  if (offset + 2 > buffer.length) return undefined;
  const tag = buffer[offset];
  let length = buffer[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new Error('unsupported BER length');
    if (start + count > buffer.length) return undefined;
    length = 0;
    for (let index = 0; index < count; index += 1) length = length * 256 + buffer[start + index];
    start += count;
  }
  if (start + length > buffer.length) return undefined;
  return { element: { tag, content: buffer.subarray(start, start + length) }, next: start + length };
}

function children(content: Buffer): Element[] {
  const out: Element[] = [];
  let offset = 0;
  while (offset < content.length) {
    const read = readElement(content, offset);
    if (!read) throw new Error('truncated BER element');
    out.push(read.element);
    offset = read.next;
  }
  return out;
}

function readInteger(content: Buffer): number {
  let value = 0;
  for (const byte of content) value = value * 256 + byte;
  return value;
}

// --- filters (RFC 4515) --------------------------------------------------------------------------

export class LdapFilterError extends Error {
  override readonly name = 'LdapFilterError';
}

function unescapeValue(text: string): Buffer {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') {
      const hex = text.slice(index + 1, index + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new LdapFilterError(`invalid escape "\\${hex}" in filter`);
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

const ATTRIBUTE = /^[A-Za-z0-9][A-Za-z0-9;.-]*$/;

function encodeItem(item: string): Buffer {
  const match = /^([^=<>~]+)(=|>=|<=|~=)(.*)$/s.exec(item);
  if (!match) throw new LdapFilterError(`invalid filter item "(${item})"`);
  const [, attribute, operator, value] = match;
  if (!ATTRIBUTE.test(attribute) || attribute.includes(':'))
    throw new LdapFilterError(`unsupported attribute "${attribute}" in filter`);
  const pair = (tag: number) =>
    tlv(
      tag,
      Buffer.concat([octets(TAG.octetString, attribute), octets(TAG.octetString, unescapeValue(value))]),
    );
  if (operator === '>=') return pair(0xa5);
  if (operator === '<=') return pair(0xa6);
  if (operator === '~=') return pair(0xa8);
  if (value === '*') return octets(0x87, attribute);
  if (!value.includes('*')) return pair(0xa3);
  const parts = value.split('*');
  const pieces: Buffer[] = [];
  parts.forEach((part, index) => {
    if (part === '') return;
    const tag = index === 0 ? 0x80 : index === parts.length - 1 ? 0x82 : 0x81;
    pieces.push(octets(tag, unescapeValue(part)));
  });
  return tlv(
    0xa4,
    Buffer.concat([octets(TAG.octetString, attribute), tlv(TAG.sequence, Buffer.concat(pieces))]),
  );
}

/** Encodes an RFC 4515 filter such as `(&(objectClass=person)(uid=a*))`. */
export function encodeFilter(filter: string): Buffer {
  const text = filter.trim();
  const source = text.startsWith('(') ? text : `(${text})`;
  let position = 0;
  const parse = (): Buffer => {
    if (source[position] !== '(') throw new LdapFilterError(`expected "(" at ${position} in filter`);
    position += 1;
    const kind = source[position];
    let encoded: Buffer;
    if (kind === '&' || kind === '|' || kind === '!') {
      position += 1;
      const parts: Buffer[] = [];
      while (source[position] === '(') parts.push(parse());
      if (parts.length === 0) throw new LdapFilterError(`"${kind}" needs at least one filter`);
      if (kind === '!' && parts.length !== 1) throw new LdapFilterError('"!" takes exactly one filter');
      encoded = tlv(kind === '&' ? 0xa0 : kind === '|' ? 0xa1 : 0xa2, Buffer.concat(parts));
    } else {
      const end = source.indexOf(')', position);
      if (end < 0) throw new LdapFilterError('unbalanced parentheses in filter');
      encoded = encodeItem(source.slice(position, end));
      position = end;
    }
    if (source[position] !== ')') throw new LdapFilterError(`expected ")" at ${position} in filter`);
    position += 1;
    return encoded;
  };
  const encoded = parse();
  if (position !== source.length) throw new LdapFilterError('unexpected text after the filter');
  return encoded;
}

// --- client ----------------------------------------------------------------------------------------

/** LDAP result codes a check is likely to meet (RFC 4511 §4.1.9). */
const RESULT_NAMES: Record<number, string> = {
  0: 'success',
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

export class LdapResultError extends Error {
  override readonly name = 'LdapResultError';
  constructor(
    readonly code: number,
    diagnostic: string,
  ) {
    super(`${RESULT_NAMES[code] ?? 'error'} (${code})${diagnostic ? `: ${diagnostic}` : ''}`);
  }
}

export interface LdapEntry {
  dn: string;
  attributes: Record<string, string[]>;
}

export interface LdapSearch {
  baseDN: string;
  filter: string;
  sizeLimit: number;
  /** Seconds the server may spend (0: no limit). */
  timeLimit: number;
}

export interface LdapConnectOptions {
  url: URL;
  rejectUnauthorized: boolean;
  signal: AbortSignal;
}

export interface LdapConnection {
  bind(dn: string, password: string): Promise<void>;
  search(request: LdapSearch): Promise<{ entries: LdapEntry[]; sizeLimitExceeded: boolean }>;
  close(): void;
}

interface Pending {
  onMessage(operation: Element): boolean;
  reject(error: Error): void;
}

/** Opens a connection to an `ldap://` or `ldaps://` URL. */
export function connectLdap(options: LdapConnectOptions): Promise<LdapConnection> {
  const { url, signal } = options;
  const secure = url.protocol === 'ldaps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : secure ? 636 : 389;
  return new Promise((resolve, reject) => {
    const socket: net.Socket = secure
      ? tls.connect({
          host,
          port,
          servername: net.isIP(host) ? undefined : host,
          rejectUnauthorized: options.rejectUnauthorized,
        })
      : net.connect({ host, port });
    let buffer: Buffer = Buffer.alloc(0);
    let nextId = 1;
    const pending = new Map<number, Pending>();
    let failure: Error | undefined;
    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
      socket.destroy();
      // Settles the connect promise when the failure came first (a no-op once connected).
      reject(error);
    };
    const onAbort = () => fail(new Error('the LDAP request was stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', (error) => fail(error));
    socket.on('close', () => {
      signal.removeEventListener('abort', onAbort);
      fail(new Error('the LDAP server closed the connection'));
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      try {
        for (;;) {
          const read = readElement(buffer, 0);
          if (!read) break;
          buffer = buffer.subarray(read.next);
          const [id, operation] = children(read.element.content);
          if (!id || !operation) throw new Error('malformed LDAP message');
          const messageId = readInteger(id.content);
          const waiter = pending.get(messageId);
          if (waiter && waiter.onMessage(operation)) pending.delete(messageId);
        }
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
    const send = (operation: Buffer, waiter: Pending) => {
      if (failure) {
        waiter.reject(failure);
        return;
      }
      const id = nextId;
      nextId += 1;
      pending.set(id, waiter);
      socket.write(tlv(TAG.sequence, Buffer.concat([integer(TAG.integer, id), operation])));
    };
    const readResult = (content: Buffer): { code: number; diagnostic: string } => {
      const [code, , diagnostic] = children(content);
      return { code: readInteger(code.content), diagnostic: diagnostic?.content.toString('utf8') ?? '' };
    };
    const connection: LdapConnection = {
      bind: (dn, password) =>
        new Promise((done, refuse) => {
          const request = tlv(
            TAG.bindRequest,
            Buffer.concat([
              integer(TAG.integer, 3),
              octets(TAG.octetString, dn),
              octets(TAG.simpleAuth, password),
            ]),
          );
          send(request, {
            reject: refuse,
            onMessage: (operation) => {
              if (operation.tag !== TAG.bindResponse) return false;
              const { code, diagnostic } = readResult(operation.content);
              if (code === 0) done();
              else refuse(new LdapResultError(code, diagnostic));
              return true;
            },
          });
        }),
      search: (search) =>
        new Promise((done, refuse) => {
          let filter: Buffer;
          try {
            filter = encodeFilter(search.filter);
          } catch (error) {
            refuse(error as Error);
            return;
          }
          const request = tlv(
            TAG.searchRequest,
            Buffer.concat([
              octets(TAG.octetString, search.baseDN),
              integer(TAG.enumerated, 2),
              integer(TAG.enumerated, 0),
              integer(TAG.integer, search.sizeLimit),
              integer(TAG.integer, search.timeLimit),
              tlv(TAG.boolean, Buffer.from([0])),
              filter,
              tlv(TAG.sequence, Buffer.alloc(0)),
            ]),
          );
          const entries: LdapEntry[] = [];
          send(request, {
            reject: refuse,
            onMessage: (operation) => {
              if (operation.tag === TAG.searchResultEntry) {
                const [name, attributeList] = children(operation.content);
                const attributes: Record<string, string[]> = {};
                for (const attribute of attributeList ? children(attributeList.content) : []) {
                  const [type, values] = children(attribute.content);
                  attributes[type.content.toString('utf8')] = values
                    ? children(values.content).map((value) => value.content.toString('utf8'))
                    : [];
                }
                entries.push({ dn: name.content.toString('utf8'), attributes });
                return false;
              }
              if (operation.tag === TAG.searchResultReference) return false;
              if (operation.tag !== TAG.searchResultDone) return false;
              const { code, diagnostic } = readResult(operation.content);
              if (code === 0 || code === 4) done({ entries, sizeLimitExceeded: code === 4 });
              else refuse(new LdapResultError(code, diagnostic));
              return true;
            },
          });
        }),
      close: () => {
        if (failure) return;
        failure = new Error('the LDAP connection was closed');
        const unbind = Buffer.concat([integer(TAG.integer, nextId), Buffer.from([TAG.unbindRequest, 0])]);
        if (socket.writable) socket.end(tlv(TAG.sequence, unbind));
        setTimeout(() => socket.destroy(), 1_000).unref();
      },
    };
    socket.once(secure ? 'secureConnect' : 'connect', () => resolve(connection));
  });
}
