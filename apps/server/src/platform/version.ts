import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from './config.js';

/** The product version: the root package.json's `version`. */
export const OPSDECK_VERSION: string = (
  JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
