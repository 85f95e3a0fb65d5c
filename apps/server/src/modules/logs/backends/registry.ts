import { fileBackend } from './file.js';
import { lokiBackend } from './loki.js';
import { openSearchBackend } from './opensearch.js';
import { opsdeckBackend } from './opsdeck.js';
import { postgresBackend } from './postgres.js';
import type { LogBackend } from './types.js';

/** Every backend type, one file each; a logging backend's spec names one by its key. */
export const LOG_BACKENDS: readonly LogBackend[] = [
  fileBackend,
  opsdeckBackend,
  postgresBackend,
  lokiBackend,
  openSearchBackend,
];
