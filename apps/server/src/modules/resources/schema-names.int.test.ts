import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { resourceKinds } from './registry.js';
import { schemaNames } from './schema-routes.js';

// The ecosystem's editors ask for the spec schemas by these names (API.md §2).
const EDITOR_NAMES: Record<string, string> = {
  'canary.spec': 'Canary',
  'topology.spec': 'Topology',
  'config_scraper.spec': 'ScrapeConfig',
  'playbook-spec': 'Playbook',
};

describe('resource spec schemas at the names the ecosystem editors request (issue 19 §5)', () => {
  let full: FullApp;

  beforeAll(async () => {
    full = await startFullApp('Schema Names Admin');
  });
  afterAll(() => full.close());

  it('serves canary.spec, topology.spec, config_scraper.spec and playbook-spec through the app', async () => {
    for (const [name, kind] of Object.entries(EDITOR_NAMES)) {
      const response = await full.get(`/api/schemas/${name}.schema.json`);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-type'], name).toMatch(/application\/json/);
      expect(response.json(), name).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        title: `${kind} spec`,
      });
    }
    const canary = (await full.get('/api/schemas/canary.spec.schema.json')).json();
    expect(canary.properties.schedule.examples).toContain('@every 30s');
  });

  it('gives every registered kind a .spec and a -spec name in the same style', async () => {
    for (const kind of resourceKinds()) {
      const base = kind.kind.toLowerCase();
      expect(schemaNames(kind)).toEqual(expect.arrayContaining([`${base}.spec`, `${base}-spec`]));
      for (const name of [`${base}.spec`, `${base}-spec`]) {
        const response = await full.get(`/api/schemas/${name}.schema.json`);
        expect(response.statusCode, name).toBe(200);
        expect(response.json().title, name).toBe(`${kind.kind} spec`);
      }
    }
  });

  it('still answers 404 for a name no kind has', async () => {
    const response = await full.get('/api/schemas/widget.spec.schema.json');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatch(/^No schema for "widget.spec"/);
  });
});
