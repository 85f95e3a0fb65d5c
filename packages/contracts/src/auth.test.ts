import { describe, expect, it } from 'vitest';
import {
  accessTokenViewSchema,
  flowErrorBodySchema,
  inviteUserRequestSchema,
  isEmailAddress,
  personUpdateRequestSchema,
  updateRolesRequestSchema,
} from './auth.js';
import { relationRowSchemas } from './rows.js';
import { propertiesResponseSchema } from './settings.js';

const firstIssue = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues[0];

describe('account request schemas', () => {
  it('reads an invite with trimmed names and defaults', () => {
    expect(inviteUserRequestSchema.parse({ email: ' ada@example.com ', role: 'viewer' })).toEqual({
      firstName: '',
      lastName: '',
      email: 'ada@example.com',
      role: 'viewer',
    });
  });

  it("keeps the people screens' messages", () => {
    expect(firstIssue(inviteUserRequestSchema.safeParse({ role: 'viewer' }))).toMatchObject({
      path: ['email'],
      message: 'Email is required',
    });
    expect(firstIssue(inviteUserRequestSchema.safeParse({ email: 'a@b.co' }))).toMatchObject({
      path: ['role'],
      message: 'Role is required',
    });
    expect(firstIssue(updateRolesRequestSchema.safeParse({ roles: ['viewer', 'owner'] }))).toMatchObject({
      path: ['roles', 1],
      message: 'Role must be one of admin, editor, commander, responder, viewer, guest',
    });
    expect(firstIssue(personUpdateRequestSchema.safeParse({ id: 'x' }))).toMatchObject({
      path: ['id'],
      message: 'id must be a person id',
    });
  });

  it('checks email addresses loosely', () => {
    expect(isEmailAddress('a@b.co')).toBe(true);
    expect(isEmailAddress('a@b')).toBe(false);
    expect(isEmailAddress('a b@c.de')).toBe(false);
  });
});

describe('account response schemas', () => {
  it('a token row needs its times as ISO strings and known scopes', () => {
    const token = {
      id: 't1',
      name: 'ci',
      scope: [{ subject: '', object: 'catalog', action: 'read' }],
      created_at: '2026-11-20T10:00:00.000Z',
      expires_at: null,
      person: null,
      created_by: null,
    };
    expect(accessTokenViewSchema.parse(token)).toEqual(token);
    expect(firstIssue(accessTokenViewSchema.safeParse({ ...token, created_at: 1 }))?.path).toEqual([
      'created_at',
    ]);
  });

  it('a flow error needs at least its message', () => {
    expect(flowErrorBodySchema.safeParse({ error: { id: 'session_inactive', message: 'x' } }).success).toBe(
      true,
    );
    expect(flowErrorBodySchema.safeParse({ error: 'Unauthorized' }).success).toBe(false);
  });

  it('properties are text values', () => {
    expect(
      firstIssue(
        propertiesResponseSchema.safeParse([
          { name: 'a', value: true, source: 'db', type: null, description: null },
        ]),
      )?.path,
    ).toEqual([0, 'value']);
  });

  it('lists the rows of the account relations', () => {
    expect(Object.keys(relationRowSchemas)).toEqual(
      expect.arrayContaining([
        'people',
        'people_roles',
        'teams',
        'team_members',
        'access_tokens',
        'properties',
      ]),
    );
  });
});
