import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem, createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';
import { httpTransport } from './test-fixtures/http-transport.js';

/**
 * MCP reads are gated exactly as /api/db reads: permission rows narrowed by object selectors
 * become row restrictions on the SQL, so a Deny hides its rows from the tools too, and a
 * selector grant to a person without a role shows only the granted rows.
 */

let full: FullApp;
let base: string;
const tokens: Record<string, string> = {};

async function personWith(
  name: string,
  roles: string[],
  grants: { deny?: boolean; objectSelector: Record<string, unknown> }[],
): Promise<void> {
  const person = await createPerson(full.db.pool, { roles });
  for (const grant of grants)
    await full.db.pool.query(
      `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object_selector)
       VALUES ($1::text, 'person', $1::uuid, 'read', $2, $3)`,
      [person.id, grant.deny ?? false, JSON.stringify(grant.objectSelector)],
    );
  tokens[name] = await createTokenForUser(full.db.pool, { email: person.email as string, name });
}

async function searchCatalog(token: string): Promise<string[]> {
  const client = new Client({ name: 'opsdeck-row-permission-test', version: '1' });
  await client.connect(httpTransport(`${base}/mcp`, token));
  try {
    const answer = (await client.callTool({
      name: 'search_catalog',
      arguments: { type: 'Test::RowScoped' },
    })) as { isError?: boolean; structuredContent?: { items?: { name: string }[] } };
    expect(answer.isError ?? false).toBe(false);
    return (answer.structuredContent?.items ?? []).map((item) => item.name).sort();
  } finally {
    await client.close();
  }
}

async function dataApiNames(token: string): Promise<string[]> {
  const response = await fetch(`${base}/api/db/configs?select=name&type=eq.Test::RowScoped`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { name: string }[]).map((row) => row.name).sort();
}

beforeAll(async () => {
  full = await startFullApp('MCP row permissions admin');
  await full.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(full.app.server.address() as AddressInfo).port}`;
  for (const name of ['alpha-1', 'alpha-2', 'secret-1', 'secret-2'])
    await createConfigItem(full.db.pool, { name, type: 'Test::RowScoped', health: 'healthy' });
  await personWith('viewer', ['viewer'], []);
  await personWith(
    'viewer-denied',
    ['viewer'],
    [{ deny: true, objectSelector: { configs: [{ name: 'secret-*' }] } }],
  );
  await personWith('granted', [], [{ objectSelector: { configs: [{ name: 'alpha-*' }] } }]);
});

afterAll(async () => {
  await full?.close();
});

describe('MCP reads under row-level permissions', () => {
  it('a viewer sees every item, through MCP as through /api/db', async () => {
    expect(await searchCatalog(tokens.viewer)).toEqual(['alpha-1', 'alpha-2', 'secret-1', 'secret-2']);
    expect(await dataApiNames(tokens.viewer)).toEqual(['alpha-1', 'alpha-2', 'secret-1', 'secret-2']);
  });

  it('a Deny by selector hides its items from the MCP tools as it does from /api/db', async () => {
    expect(await dataApiNames(tokens['viewer-denied'])).toEqual(['alpha-1', 'alpha-2']);
    expect(await searchCatalog(tokens['viewer-denied'])).toEqual(['alpha-1', 'alpha-2']);
  });

  it('a selector grant to a person without a role shows only the granted items', async () => {
    expect(await dataApiNames(tokens.granted)).toEqual(['alpha-1', 'alpha-2']);
    expect(await searchCatalog(tokens.granted)).toEqual(['alpha-1', 'alpha-2']);
  });
});
