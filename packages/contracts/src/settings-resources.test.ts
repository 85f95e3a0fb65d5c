import { describe, expect, it } from 'vitest';
import {
  isSettingsResourceTable,
  SETTINGS_RESOURCE_TABLES,
  SETTINGS_RESOURCE_UPDATES,
  settingsResourceEditableColumns,
} from './settings-resources.js';

describe('generic settings resources', () => {
  it('are the spec managed-resource tables less config scrapers', () => {
    expect([...SETTINGS_RESOURCE_TABLES].sort()).toEqual([
      'canaries',
      'incident_rules',
      'logging_backends',
      'teams',
      'topologies',
    ]);
    expect(isSettingsResourceTable('config_scrapers')).toBe(false);
    expect(isSettingsResourceTable('teams')).toBe(true);
  });

  it('let an editor change only the listed columns', () => {
    expect(settingsResourceEditableColumns('teams')).toEqual(['labels', 'spec', 'icon']);
    expect(settingsResourceEditableColumns('incident_rules')).toEqual(['labels', 'spec']);
    const refused = SETTINGS_RESOURCE_UPDATES.teams.safeParse({ name: 'renamed' });
    expect(refused.success).toBe(false);
    expect(SETTINGS_RESOURCE_UPDATES.canaries.safeParse({ schedule: '@every 5m' }).success).toBe(true);
    expect(SETTINGS_RESOURCE_UPDATES.logging_backends.safeParse({ labels: { a: 1 } }).success).toBe(false);
  });
});
