import { createSecretBox, type SecretBox } from '../../../platform/secrets.js';
import { randomBytes } from 'node:crypto';

/**
 * Kratos's self-service errors (`GET /self-service/errors?id=`) without a table: the id is the
 * error itself, sealed (AES-GCM) with SECRET_KEY, so any server process can read it back and
 * nobody can make the error screen show a text the server did not write. Without a SecretBox
 * (tests, a server without SECRET_KEY) a key made at start-up seals them: ids then last as long
 * as the process.
 */

const PROCESS_BOX = createSecretBox(randomBytes(32));
/** How long an error id can be read back. */
const ERROR_LIFESPAN_MS = 3_600_000;

interface SealedError {
  error: Record<string, unknown>;
  created_at: string;
}

export function recordFlowError(secrets: SecretBox | undefined, error: Record<string, unknown>): string {
  const sealed = (secrets ?? PROCESS_BOX).seal(
    JSON.stringify({ error, created_at: new Date().toISOString() } satisfies SealedError),
  );
  return Buffer.from(sealed).toString('base64url');
}

export function findFlowError(
  secrets: SecretBox | undefined,
  id: string,
): { id: string; error: Record<string, unknown>; created_at: string; updated_at: string } | undefined {
  if (id.length > 4096) return undefined;
  try {
    const opened = JSON.parse(
      (secrets ?? PROCESS_BOX).open(Buffer.from(id, 'base64url').toString()),
    ) as SealedError;
    if (Date.now() - Date.parse(opened.created_at) > ERROR_LIFESPAN_MS) return undefined;
    return { id, error: opened.error, created_at: opened.created_at, updated_at: opened.created_at };
  } catch {
    return undefined;
  }
}
