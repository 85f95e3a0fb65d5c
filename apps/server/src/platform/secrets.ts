import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Seals secrets at rest (connection passwords, tokens, keys). */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealedText: string): string;
}

const PREFIX = 'enc:v1:';

/**
 * AES-256-GCM with a random 96-bit nonce per value: `enc:v1:<nonce>.<ciphertext>.<tag>`
 * (base64url). Tampering or a wrong key fails to open, with a message that shows no secret.
 */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  return {
    seal(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${PREFIX}${[nonce, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.')}`;
    },
    open(sealedText) {
      if (!sealedText.startsWith(PREFIX)) throw new Error('The value is not a sealed secret');
      const [nonce, ciphertext, tag] = sealedText.slice(PREFIX.length).split('.');
      if (!nonce || ciphertext === undefined || !tag) throw new Error('The sealed secret is malformed');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      try {
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new Error('The sealed secret cannot be opened with this SECRET_KEY');
      }
    },
  };
}

/** A SECRET_KEY of any length becomes a 32-byte key; 64 hex characters are used as they are. */
export function keyFromSecret(secret: string): Buffer {
  if (/^[0-9a-f]{64}$/i.test(secret)) return Buffer.from(secret, 'hex');
  return createHash('sha256').update(`opsdeck-secret-key:${secret}`).digest();
}

/**
 * The key from SECRET_KEY, else the one generated into DATA_DIR/secret-key on first start.
 * Replicas sharing an external database must share SECRET_KEY.
 */
export async function loadSecretKey(options: { secretKey: string | undefined; dataDir: string }): Promise<{
  key: Buffer;
  source: 'SECRET_KEY' | 'generated' | 'data-dir';
}> {
  if (options.secretKey) return { key: keyFromSecret(options.secretKey), source: 'SECRET_KEY' };
  const file = path.join(options.dataDir, 'secret-key');
  const existing = await readKeyFile(file);
  if (existing) return { key: existing, source: 'data-dir' };
  // Several processes may start on one data directory at once: the key is written whole to a
  // file of this process's own and then linked into place, which fails if another process got
  // there first. Nobody ever reads a half-written key.
  await fs.mkdir(options.dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    await fs.link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(draft, { force: true });
  }
  const key = await readKeyFile(file);
  if (!key) throw new Error(`${file} holds no secret key`);
  return { key, source: 'generated' };
}

/** The key in `file`; undefined when there is no file. A file that holds no 32-byte key is an error. */
async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'hex');
  if (key.length !== 32) throw new Error(`${file} must hold 64 hexadecimal characters (a 32-byte key)`);
  return key;
}
