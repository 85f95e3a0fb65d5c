import { describe, expect, it } from 'vitest';
import { SETTINGS_ITEMS, visibleSettingsItems, type SidebarRules } from './sidebar-items';

const everything: SidebarRules = { isViewer: false, canRead: () => true, isEnabled: () => true };

describe('visibleSettingsItems', () => {
  it('sorts the Settings submenu by name', () => {
    expect(visibleSettingsItems(SETTINGS_ITEMS, everything).map((item) => item.name)).toEqual([
      'Agents',
      'Feature Flags',
      'Health Checks',
      'Incident Rules',
      'Jobs History',
      'Permissions',
      'Teams',
      'Tokens',
      'Users',
    ]);
  });

  it('hides Settings from viewers', () => {
    expect(visibleSettingsItems(SETTINGS_ITEMS, { ...everything, isViewer: true })).toEqual([]);
  });

  it('hides an entry whose feature is disabled', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.job_history',
    }).map((item) => item.name);
    expect(names).toEqual([
      'Agents',
      'Feature Flags',
      'Health Checks',
      'Incident Rules',
      'Permissions',
      'Teams',
      'Tokens',
      'Users',
    ]);
  });

  it('hides Health Checks while the health settings are disabled', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.health',
    }).map((item) => item.name);
    expect(names).toEqual([
      'Agents',
      'Feature Flags',
      'Incident Rules',
      'Jobs History',
      'Permissions',
      'Teams',
      'Tokens',
      'Users',
    ]);
  });

  it('hides Health Checks from a user who cannot read canaries', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      canRead: (resource) => resource !== 'canaries',
    }).map((item) => item.name);
    expect(names).not.toContain('Health Checks');
  });

  it('hides an entry the user cannot read', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      canRead: (resource) => resource !== 'feature_flags',
    }).map((item) => item.name);
    expect(names).toEqual([
      'Agents',
      'Health Checks',
      'Incident Rules',
      'Jobs History',
      'Permissions',
      'Teams',
      'Tokens',
      'Users',
    ]);
  });
});
