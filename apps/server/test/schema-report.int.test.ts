import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { PROJECT_ROOT } from '../src/platform/config.js';
import { buildSchemaReport } from '../src/platform/db/schema-report.js';
import { createTestDatabase } from './harness/db.js';

it('docs/schema.md matches the migrations (run `npm run schema:report` after changing them)', async () => {
  const db = await createTestDatabase();
  try {
    const report = await buildSchemaReport(db.pool);
    const committed = await fs.readFile(path.join(PROJECT_ROOT, 'docs/schema.md'), 'utf8');
    expect(committed).toBe(report);
  } finally {
    await db.close();
  }
});
