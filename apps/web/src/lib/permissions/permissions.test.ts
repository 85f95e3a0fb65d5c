import { describe, expect, it } from 'vitest';
import { canAccess } from './can';
import { isFeatureEnabled } from './feature-flags';

describe('canAccess', () => {
  it('follows the merged role matrix', () => {
    expect(canAccess({ roles: ['viewer'], permissions: [] }, 'database', 'read')).toBe(true);
    expect(canAccess({ roles: ['viewer'], permissions: [] }, 'database', 'write')).toBe(false);
    expect(canAccess({ roles: ['viewer'], permissions: [] }, 'identities', 'read')).toBe(false);
    expect(canAccess({ roles: ['editor'], permissions: [] }, 'connections', 'write')).toBe(false);
    expect(canAccess({ roles: ['viewer', 'editor'], permissions: [] }, 'database', 'write')).toBe(true);
    expect(canAccess({ roles: [], permissions: [] }, 'database', 'read')).toBe(false);
    expect(canAccess({ roles: ['not-a-role'], permissions: [] }, 'database', 'read')).toBe(false);
  });

  it('lets a deny row refuse what a role allows and an allow row grant more', () => {
    const deny = { object: 'rbac', action: 'read', deny: true };
    expect(canAccess({ roles: ['admin'], permissions: [deny] }, 'permissions', 'read')).toBe(false);
    const allow = { object: 'people', action: 'read', deny: false };
    expect(canAccess({ roles: ['viewer'], permissions: [allow] }, 'identities', 'read')).toBe(true);
    expect(canAccess({ roles: ['viewer'], permissions: [allow] }, 'identities', 'write')).toBe(false);
  });
});

describe('isFeatureEnabled', () => {
  it("switches an area off with '{feature}.disable' = 'true' and follows its parent area", () => {
    expect(isFeatureEnabled([], 'settings.job_history')).toBe(true);
    expect(
      isFeatureEnabled([{ name: 'settings.job_history.disable', value: 'true' }], 'settings.job_history'),
    ).toBe(false);
    expect(isFeatureEnabled([{ name: 'health.disable', value: 'true' }], 'settings.job_history')).toBe(false);
    expect(isFeatureEnabled([{ name: 'health.disable', value: 'false' }], 'settings.job_history')).toBe(true);
    expect(isFeatureEnabled([{ name: 'health.disable', value: 'true' }], 'settings.feature_flags')).toBe(
      true,
    );
  });
});
