import type { SecretBox } from './secrets.js';

/**
 * Secret-shaped fields inside resource specs (connections' typed blocks, checks' and scrapers'
 * inline credentials): sealed at rest whatever path wrote them, opened only where the product
 * uses them, and masked in reads by roles that cannot edit their owner.
 *
 * A field is secret-shaped when its key names a credential (password, token, secret, apiKey,
 * accessKey, secretKey, clientSecret, credentials, bearer, kubeconfig, privateKey, sshKey,
 * certificate, ...), or when it is the `value` of a `{name, value}` pair whose name is one
 * (an `Authorization` header). Under such a key a string is sealed, and so is the inline
 * `value` of a `{value, valueFrom}` source; references (`valueFrom`) stay as they are.
 */

/** What a masked secret reads as. Written back unchanged, it keeps the stored secret. */
export const MASKED_SECRET = '********';

/** The prefix of a value sealed with the SecretBox (secrets.ts). */
export const SEALED_PREFIX = 'enc:v1:';

const SECRET_KEY =
  /(password|passwd|passphrase|secret|secretkey|token|apikey|api_key|accesskey|access_key|privatekey|private_key|credentials|bearer|kubeconfig|certificate|sshkey|ssh_key)$/i;
const SECRET_PAIR_NAME =
  /^(authorization|proxy-authorization|cookie|x-api-key)$|token|secret|api[-_]?key|password/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

export type Json = unknown;

/** A JSON object (not an array, a Date, a Buffer or another class instance, which are kept as they are). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Whether a string under a secret key is a secret to seal (not a mask, a seal or empty). */
function sealable(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== MASKED_SECRET && !isSealed(value);
}

function transformSecret(value: Json, apply: (text: string) => string): Json {
  if (typeof value === 'string') return apply(value);
  if (isPlainObject(value) && typeof value.value === 'string') return { ...value, value: apply(value.value) };
  return value;
}

/**
 * Walks a JSON value and replaces each secret-shaped string with `apply(string)`; the rest is
 * copied as it is. `valueFrom` references are never touched.
 */
export function mapSecretFields(value: Json, apply: (text: string) => string): Json {
  if (Array.isArray(value)) return value.map((item) => mapSecretFields(item, apply));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  const pairIsSecret = typeof value.name === 'string' && SECRET_PAIR_NAME.test(value.name);
  for (const [key, item] of Object.entries(value)) {
    if (key === 'valueFrom') out[key] = item;
    else if (key === 'value' && pairIsSecret && typeof item === 'string') out[key] = apply(item);
    else if (isSecretKey(key)) out[key] = transformSecret(item, apply);
    else out[key] = mapSecretFields(item, apply);
  }
  return out;
}

/** Seals every secret-shaped plaintext (masks and seals are kept as they are). */
export function sealSecretFields(value: Json, box: SecretBox): Json {
  return mapSecretFields(value, (text) => (sealable(text) ? box.seal(text) : text));
}

/** Opens every sealed string, wherever it is (what the product runs with). */
export function openSealedStrings(value: Json, box: SecretBox | undefined): Json {
  if (typeof value === 'string') return isSealed(value) && box ? box.open(value) : value;
  if (Array.isArray(value)) return value.map((item) => openSealedStrings(item, box));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, openSealedStrings(item, box)]));
}

/** Sealed strings as JSON text (`"enc:v1:…"`), for masking a serialized answer. */
const SEALED_JSON_STRING = /"enc:v1:[A-Za-z0-9_\-.]*"/g;
const SEALED_TEXT = /enc:v1:[A-Za-z0-9_\-.]*/g;

/** Replaces every sealed value in a serialized answer (JSON or CSV) with the mask. */
export function maskSealedText(text: string): string {
  if (!text.includes(SEALED_PREFIX)) return text;
  return text.replace(SEALED_JSON_STRING, `"${MASKED_SECRET}"`).replace(SEALED_TEXT, MASKED_SECRET);
}

/** Replaces every sealed string of a JSON value with the mask. */
export function maskSealedStrings(value: Json): Json {
  if (typeof value === 'string') return isSealed(value) ? MASKED_SECRET : value;
  if (Array.isArray(value)) return value.map(maskSealedStrings);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskSealedStrings(item)]));
}
