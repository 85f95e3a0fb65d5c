// Regenerates docs/schema.md from a database migrated with every file in apps/server/migrations.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/platform/config.js';
import { createPool } from '../src/platform/db/pool.js';
import { buildSchemaReport } from '../src/platform/db/schema-report.js';
import { databaseUrl, startTestServer } from '../test/harness/postgres.js';

export const SCHEMA_REPORT_FILE = path.join(PROJECT_ROOT, 'docs/schema.md');

const server = await startTestServer();
try {
  const pool = createPool(databaseUrl(server.adminUrl, server.templateName), { max: 1 });
  try {
    await fs.writeFile(SCHEMA_REPORT_FILE, await buildSchemaReport(pool));
  } finally {
    await pool.end();
  }
  process.stdout.write(`wrote ${path.relative(PROJECT_ROOT, SCHEMA_REPORT_FILE)}\n`);
} finally {
  await server.stop();
}
