import { resourceSpecJsonSchemaSchema } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { resourceKinds } from './registry.js';
import { resourceSchemaRoutes } from './schema-routes.js';

describe('GET /api/schemas/:kind.schema.json', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    registerErrorHandling(app);
    await app.register(resourceSchemaRoutes);
  });
  afterAll(() => app.close());

  it('serves the JSON Schema of a spec by lower-case kind and by table name', async () => {
    const byKind = await app.inject({ url: '/api/schemas/canary.schema.json' });
    expect(byKind.statusCode).toBe(200);
    expect(byKind.headers['content-type']).toMatch(/application\/json/);
    const schema = byKind.json();
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Canary spec',
      additionalProperties: {},
    });
    expect(schema.properties.replicas).toMatchObject({ type: 'integer', minimum: 0 });
    expect(schema.properties.schedule.examples).toContain('@every 30s');

    const byTable = await app.inject({ url: '/api/schemas/config_scrapers.schema.json' });
    expect(byTable.statusCode).toBe(200);
    expect(byTable.json().title).toBe('ScrapeConfig spec');
    expect(byTable.json().properties.retention.properties.changes.items.required).toEqual(['name']);
  });

  it('serves a schema for every kind under each of its names', async () => {
    for (const kind of resourceKinds()) {
      for (const name of [kind.kind.toLowerCase(), kind.table]) {
        const response = await app.inject({ url: `/api/schemas/${name}.schema.json` });
        expect(response.statusCode, name).toBe(200);
        expect(response.json().title).toBe(`${kind.kind} spec`);
      }
    }
  });

  it('answers with documents its contract schema parses', async () => {
    for (const kind of resourceKinds()) {
      const response = await app.inject({ url: `/api/schemas/${kind.table}.schema.json` });
      expect(resourceSpecJsonSchemaSchema.safeParse(response.json()).error).toBeUndefined();
    }
  });

  it('refuses a blank kind with a 400 naming the field', async () => {
    const response = await app.inject({ url: '/api/schemas/%20.schema.json' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'kind: a resource kind is required', field: 'kind' });
  });

  it('answers 404 with a JSON error for an unknown kind', async () => {
    const response = await app.inject({ url: '/api/schemas/widget.schema.json' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: expect.stringMatching(/^No schema for "widget". Known kinds: team, /),
    });
  });
});
