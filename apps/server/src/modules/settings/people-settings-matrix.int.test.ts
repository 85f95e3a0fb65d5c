import { randomUUID } from 'node:crypto';
import { ROLES, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { bearer, createTestPerson, createTestToken } from '../auth/test-fixtures/auth-test-app.js';
import { matrixAllows } from '../auth/test-fixtures/role-matrix.js';

/**
 * The custom routes of issue 27's settings pages (users, agents, event queue) in the role matrix
 * (spec core §6), on the whole app: every role × route answers as the matrix says. An allowed
 * caller gets past the permission check (200, or 404 for an unknown id); a refused one gets 403.
 * The matrix is the hand-written one of `role-matrix.ts`, not the contracts' table the server uses.
 */

let full: FullApp;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  full = await startFullApp('Matrix Admin');
  for (const role of ROLES) {
    const person = await createTestPerson(full.db.pool, { roles: [role] });
    tokens[role] = await createTestToken(full.db.pool, person.id);
  }
});

afterAll(async () => {
  await full?.close();
});

interface RouteCell {
  label: string;
  /** The matrix resource and action the route needs (core §6). */
  needs: { resource: string; action: 'read' | 'write' }[];
  /** Built per call so each allowed write has fresh input (a new agent name, a new email). */
  request: () => Promise<{ method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: unknown }>;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-0000000000aa';

const ROUTES: RouteCell[] = [
  {
    label: 'GET /api/event-queue/summary',
    needs: [{ resource: 'database', action: 'read' }],
    request: async () => ({ method: 'GET', url: '/api/event-queue/summary' }),
  },
  {
    label: 'GET /api/event-queue/failed',
    needs: [{ resource: 'database', action: 'read' }],
    request: async () => ({ method: 'GET', url: '/api/event-queue/failed' }),
  },
  {
    label: 'POST /api/event-queue/retry',
    needs: [{ resource: 'database', action: 'write' }],
    request: async () => ({
      method: 'POST',
      url: '/api/event-queue/retry',
      payload: { name: 'matrix.none' },
    }),
  },
  {
    label: 'POST /api/event-queue/discard',
    needs: [{ resource: 'database', action: 'write' }],
    request: async () => ({
      method: 'POST',
      url: '/api/event-queue/discard',
      payload: { name: 'matrix.none' },
    }),
  },
  {
    label: 'POST /api/agent/generate',
    needs: [{ resource: 'agents', action: 'write' }],
    request: async () => ({
      method: 'POST',
      url: '/api/agent/generate',
      payload: { name: `matrix-${randomUUID().slice(0, 8)}`, properties: {} },
    }),
  },
  {
    label: 'DELETE /api/agent/{id}',
    needs: [{ resource: 'agents', action: 'write' }],
    request: async () => ({ method: 'DELETE', url: `/api/agent/${UNKNOWN_ID}` }),
  },
  {
    label: 'POST /api/auth/invite_user',
    needs: [{ resource: 'identities', action: 'write' }],
    request: async () => ({
      method: 'POST',
      url: '/api/auth/invite_user',
      payload: { firstName: 'M', lastName: 'X', email: `matrix-${randomUUID()}@example.com`, role: 'viewer' },
    }),
  },
  {
    label: 'DELETE /api/people/{id}',
    needs: [{ resource: 'identities', action: 'write' }],
    request: async () => ({ method: 'DELETE', url: `/api/people/${UNKNOWN_ID}` }),
  },
  {
    label: "POST /api/people/update (another person's roles)",
    needs: [
      { resource: 'identities', action: 'write' },
      { resource: 'rbac', action: 'write' },
    ],
    request: async () => {
      const target = await createTestPerson(full.db.pool, { roles: ['viewer'] });
      return { method: 'POST', url: '/api/people/update', payload: { id: target.id, roles: ['viewer'] } };
    },
  },
];

describe('issue 27 settings routes × roles', () => {
  it('answer every role as the role matrix says', async () => {
    const wrong: string[] = [];
    for (const route of ROUTES) {
      for (const role of ROLES) {
        const allowed = route.needs.every(({ resource, action }) => matrixAllows(role, resource, action));
        const { method, url, payload } = await route.request();
        const answer = await full.app.inject({
          method,
          url,
          headers: {
            ...bearer(tokens[role]),
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
        });
        const expected = allowed ? [200, 404] : [403];
        if (!expected.includes(answer.statusCode))
          wrong.push(`${role} ${route.label}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
