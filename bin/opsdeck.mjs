#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../apps/server/dist/cli/entry.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'opsdeck: the server is not built yet. Run `npm run build` (npm start does it for you).\n',
  );
  process.exit(1);
}
await import(entry.href);
