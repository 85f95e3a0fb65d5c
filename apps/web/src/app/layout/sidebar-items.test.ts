import { describe, expect, it } from 'vitest';
import {
  MAIN_ITEMS,
  SETTINGS_ITEMS,
  visibleItems,
  visibleSettingsItems,
  type SidebarRules,
} from './sidebar-items';

const everything: SidebarRules = { isViewer: false, canRead: () => true, isEnabled: () => true };
/** Every entry, sorted: the other tests take one away. */
const allNames = visibleSettingsItems(SETTINGS_ITEMS, everything).map((item) => item.name);

describe('visibleSettingsItems', () => {
  it('sorts the Settings submenu by name', () => {
    expect(visibleSettingsItems(SETTINGS_ITEMS, everything).map((item) => item.name)).toEqual([
      'Agents',
      'Connections',
      'Event Queue',
      'Feature Flags',
      'Health Checks',
      'Incident Rules',
      'Integrations',
      'Jobs History',
      'Log Backends',
      'Notifications',
      'Permissions',
      'Teams',
      'Tokens',
      'Topologies',
      'Users',
      'Views',
    ]);
  });

  it('hides Integrations while settings.integrations is disabled', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.integrations',
    }).map((item) => item.name);
    expect(names).toEqual(allNames.filter((name) => name !== 'Integrations'));
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

  it('hides Event Queue when the event_queue_status feature is disabled', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.event_queue_status',
    }).map((item) => item.name);
    expect(allNames).toContain('Event Queue');
    expect(names).toEqual(allNames.filter((name) => name !== 'Event Queue'));
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

describe('the Logs and Applications entries', () => {
  it('sit after Catalog and after Playbooks, and go with their feature flags', () => {
    const names = (rules: SidebarRules) => visibleItems(MAIN_ITEMS, rules).map((item) => item.name);
    expect(names(everything).slice(3, 7)).toEqual(['Catalog', 'Logs', 'Playbooks', 'Applications']);
    expect(names({ ...everything, isEnabled: (feature) => feature !== 'logs' })).not.toContain('Logs');
    expect(names({ ...everything, isEnabled: (feature) => feature !== 'applications' })).not.toContain(
      'Applications',
    );
    expect(names({ ...everything, canRead: (resource) => resource !== 'logging_backends' })).not.toContain(
      'Logs',
    );
  });

  it('hides Log Backends while its settings are disabled', () => {
    const names = visibleSettingsItems(SETTINGS_ITEMS, {
      ...everything,
      isEnabled: (feature) => feature !== 'settings.logging_backends',
    }).map((item) => item.name);
    expect(names).toEqual(allNames.filter((name) => name !== 'Log Backends'));
  });
});
