import { describe, expect, it } from 'vitest';
import { SETTINGS_ITEMS, visibleSettingsItems, type SidebarRules } from './sidebar-items';

const everything: SidebarRules = { isViewer: false, canRead: () => true, isEnabled: () => true };
/** Every entry, sorted: the other tests take one away. */
const allNames = visibleSettingsItems(SETTINGS_ITEMS, everything).map((item) => item.name);

describe('visibleSettingsItems', () => {
  it('sorts the Settings submenu by name', () => {
    expect(visibleSettingsItems(SETTINGS_ITEMS, everything).map((item) => item.name)).toEqual([
      'Agents',
      'Connections',
      'Feature Flags',
      'Health Checks',
      'Incident Rules',
      'Jobs History',
      'Notifications',
      'Permissions',
      'Teams',
      'Tokens',
      'Topologies',
      'Users',
      'Views',
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
    expect(names).toEqual(allNames.filter((name) => name !== 'Jobs History'));
  });

  it('hides Health Checks while the health settings are disabled', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.health',
    }).map((item) => item.name);
    expect(names).toEqual(allNames.filter((name) => name !== 'Health Checks'));
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
    expect(names).toEqual(allNames.filter((name) => name !== 'Feature Flags'));
  });

  it('hides Connections from a user who cannot read connections, and while the area is disabled', () => {
    const unread = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      canRead: (resource) => resource !== 'connections',
    }).map((item) => item.name);
    expect(unread).not.toContain('Connections');
    const disabled = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.connections',
    }).map((item) => item.name);
    expect(disabled).not.toContain('Connections');
  });
});
