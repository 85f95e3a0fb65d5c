import { describe, expect, it } from 'vitest';
import { asJsonSchema, validateJsonSchema, type JsonSchema } from './json-schema';

const CANARY: JsonSchema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'spec'],
  properties: {
    apiVersion: { type: 'string' },
    kind: { enum: ['Canary'] },
    spec: { $ref: '#/definitions/CanarySpec' },
  },
  definitions: {
    CanarySpec: {
      type: 'object',
      properties: {
        schedule: { type: 'string' },
        interval: { type: 'integer' },
        http: { type: 'array', items: { $ref: '#/definitions/HTTPCheck' } },
      },
    },
    HTTPCheck: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        url: { type: 'string' },
        responseCodes: { type: 'array', items: { type: 'integer' } },
      },
    },
  },
};

describe('validateJsonSchema', () => {
  it('accepts a valid document', () => {
    expect(
      validateJsonSchema(
        {
          apiVersion: 'canaries.flanksource.com/v1',
          kind: 'Canary',
          spec: { interval: 30, http: [{ name: 'a', responseCodes: [200] }] },
        },
        CANARY,
      ),
    ).toEqual([]);
  });

  it('reports required properties', () => {
    expect(validateJsonSchema({ kind: 'Canary' }, CANARY)).toEqual([
      { path: 'apiVersion', message: 'is required' },
      { path: 'spec', message: 'is required' },
    ]);
  });

  it('reports types, with integer distinct from number', () => {
    expect(validateJsonSchema({ apiVersion: 1, kind: 'Canary', spec: { interval: 1.5 } }, CANARY)).toEqual([
      { path: 'apiVersion', message: 'must be string' },
      { path: 'spec.interval', message: 'must be integer' },
    ]);
    expect(validateJsonSchema(3, { type: 'number' })).toEqual([]);
    expect(validateJsonSchema(null, { type: ['string', 'null'] })).toEqual([]);
    expect(validateJsonSchema([], { type: ['string', 'object'] })).toEqual([
      { path: '(root)', message: 'must be one of the types string, object' },
    ]);
  });

  it('reports enum values', () => {
    expect(validateJsonSchema({ apiVersion: 'v1', kind: 'Topology', spec: {} }, CANARY)).toEqual([
      { path: 'kind', message: "must be one of 'Canary'" },
    ]);
  });

  it('follows items and local references into arrays', () => {
    expect(
      validateJsonSchema(
        {
          apiVersion: 'v1',
          kind: 'Canary',
          spec: { http: [{ name: 'ok' }, { url: 5, responseCodes: ['x'] }] },
        },
        CANARY,
      ),
    ).toEqual([
      { path: 'spec.http[1].name', message: 'is required' },
      { path: 'spec.http[1].url', message: 'must be string' },
      { path: 'spec.http[1].responseCodes[0]', message: 'must be integer' },
    ]);
  });

  it('survives unknown and self-referencing references', () => {
    const loop: JsonSchema = {
      $ref: '#/definitions/Loop',
      definitions: { Loop: { $ref: '#/definitions/Loop' } },
    };
    expect(validateJsonSchema({}, loop)).toEqual([]);
    expect(validateJsonSchema({}, { $ref: 'https://example.com/other.json' })).toEqual([]);
  });

  it('quotes keys that are not identifiers in paths', () => {
    expect(
      validateJsonSchema(
        { labels: { 'app.kubernetes.io/name': 1 } },
        {
          properties: { labels: { properties: { 'app.kubernetes.io/name': { type: 'string' } } } },
        },
      ),
    ).toEqual([{ path: 'labels["app.kubernetes.io/name"]', message: 'must be string' }]);
  });

  it('reads fetched schemas defensively', () => {
    expect(asJsonSchema({ type: 'object' })).toEqual({ type: 'object' });
    expect(asJsonSchema('nope')).toBeUndefined();
    expect(asJsonSchema([])).toBeUndefined();
  });
});
