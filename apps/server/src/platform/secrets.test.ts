import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, keyFromSecret, loadSecretKey } from './secrets.js';

describe('secret box', () => {
  const box = createSecretBox(keyFromSecret('correct horse'));

  it('round-trips and never shows the plaintext', () => {
    const sealed = box.seal('p@ssw0rd');
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain('p@ssw0rd');
    expect(box.open(sealed)).toBe('p@ssw0rd');
    expect(box.seal('p@ssw0rd')).not.toBe(sealed);
  });

  it('refuses another key and tampered values without leaking them', () => {
    const sealed = box.seal('secret-value');
    const other = createSecretBox(keyFromSecret('another key'));
    expect(() => other.open(sealed)).toThrow('The sealed secret cannot be opened with this SECRET_KEY');
    const tampered = `${sealed.slice(0, -3)}AAA`;
    expect(() => box.open(tampered)).toThrow(/cannot be opened/);
    expect(() => box.open('plain')).toThrow('The value is not a sealed secret');
  });

  it('generates a key into the data directory once and reuses it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-secrets-'));
    try {
      const first = await loadSecretKey({ secretKey: undefined, dataDir });
      const second = await loadSecretKey({ secretKey: undefined, dataDir });
      expect(first.source).toBe('generated');
      expect(second.source).toBe('data-dir');
      expect(second.key.equals(first.key)).toBe(true);
      expect((await fs.stat(path.join(dataDir, 'secret-key'))).mode & 0o777).toBe(0o600);
      expect((await loadSecretKey({ secretKey: 'x', dataDir })).source).toBe('SECRET_KEY');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('gives processes starting together on one data directory the same whole key', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-secrets-'));
    try {
      const keys = await Promise.all(
        Array.from({ length: 20 }, () => loadSecretKey({ secretKey: undefined, dataDir })),
      );
      for (const { key } of keys) {
        expect(key.length).toBe(32);
        expect(key.equals(keys[0].key)).toBe(true);
      }
      // No draft file is left behind.
      expect(await fs.readdir(dataDir)).toEqual(['secret-key']);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a key file that does not hold a 32-byte key, without printing it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-secrets-'));
    try {
      await fs.writeFile(path.join(dataDir, 'secret-key'), 'abcdef\n');
      await expect(loadSecretKey({ secretKey: undefined, dataDir })).rejects.toThrow(
        /secret-key must hold 64 hexadecimal characters/,
      );
      await expect(loadSecretKey({ secretKey: undefined, dataDir })).rejects.not.toThrow(/abcdef/);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
