import { describe, expect, it } from 'vitest';
import { CHECK_STATUSES, HEALTH_STATES, checkStatusSchema, healthStateSchema } from './health.js';
import {
  EVIDENCE_TYPES,
  HYPOTHESIS_STATUSES,
  HYPOTHESIS_TYPES,
  INCIDENT_EVENT_TYPES,
  INCIDENT_LINK_SEVERITIES,
  INCIDENT_SEVERITIES,
  INCIDENT_SEVERITY_LEVELS,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  NEW_HYPOTHESIS_DEFAULTS,
  NEW_INCIDENT_DEFAULTS,
  RESPONDER_TYPES,
  incidentSeveritySchema,
  incidentStatusSchema,
  incidentTypeSchema,
} from './incidents.js';
import { JOB_STATUSES, jobStatusSchema } from './jobs.js';
import { SCHEDULE_PRESETS, schedulePresetSchema } from './schedules.js';
import {
  CHECK_DEFAULT_TIME_RANGES,
  DEFAULT_HEALTH_TIME_RANGE,
  HEALTH_TIME_RANGE_MINUTES,
  HEALTH_TIME_RANGES,
  RELATIVE_TIME_RANGE_PRESETS,
  TIME_RANGE_TYPES,
  healthTimeRangeSchema,
  relativeTimeRangePresetSchema,
} from './time-ranges.js';

// The lists as the spec writes them (core §4 and §9, settings §3, §4 and §9), in its order.
describe('incident values', () => {
  it('lists statuses, types, hypothesis values, evidence kinds and event names as the spec does', () => {
    expect(INCIDENT_STATUSES).toEqual(['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']);
    expect(INCIDENT_TYPES).toEqual([
      'cost',
      'availability',
      'performance',
      'security',
      'integration',
      'compliance',
      'technicalDebt',
      'reliability',
    ]);
    expect(HYPOTHESIS_STATUSES).toEqual([
      'proven',
      'likely',
      'possible',
      'unlikely',
      'improbable',
      'disproven',
    ]);
    expect(HYPOTHESIS_TYPES).toEqual(['root', 'factor', 'solution']);
    expect(EVIDENCE_TYPES).toEqual([
      'log',
      'config',
      'topology',
      'check',
      'config_analysis',
      'config_change',
      'comment',
    ]);
    expect(RESPONDER_TYPES).toEqual(['person', 'team']);
    expect(INCIDENT_EVENT_TYPES).toHaveLength(9);
    expect(NEW_HYPOTHESIS_DEFAULTS).toEqual({ status: 'possible', type: 'root' });
    expect(NEW_INCIDENT_DEFAULTS).toEqual({ status: 'open', severity: 'low', type: 'availability' });
  });

  it('has one set of seven severities: the five levels of the incident pages and the link dialog order', () => {
    expect(INCIDENT_SEVERITY_LEVELS).toEqual(['low', 'medium', 'high', 'critical', 'blocker']);
    // The dialog's own order is pinned by its test (incident-link-dialog.test.tsx), as users see it.
    expect(INCIDENT_LINK_SEVERITIES.indexOf('blocker')).toBeLessThan(
      INCIDENT_LINK_SEVERITIES.indexOf('critical'),
    );
    expect([...INCIDENT_LINK_SEVERITIES].sort()).toEqual([...INCIDENT_SEVERITIES].sort());
    expect(INCIDENT_SEVERITIES.filter((value) => !INCIDENT_SEVERITY_LEVELS.includes(value as never))).toEqual(
      ['info', 'warning'],
    );
  });

  it('accepts the listed values and rejects others, case included', () => {
    expect(incidentSeveritySchema.parse('blocker')).toBe('blocker');
    expect(incidentSeveritySchema.safeParse('Low').success).toBe(false);
    expect(incidentStatusSchema.safeParse('acknowledged').success).toBe(false);
    expect(incidentTypeSchema.safeParse('technical_debt').success).toBe(false);
  });
});

describe('health, job and schedule values', () => {
  it('lists health states, check statuses and job statuses', () => {
    expect(HEALTH_STATES).toEqual(['healthy', 'unhealthy', 'warning', 'unknown']);
    expect(CHECK_STATUSES).toEqual(['healthy', 'unhealthy']);
    expect(JOB_STATUSES).toEqual(['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED']);
    expect(checkStatusSchema.safeParse('warning').success).toBe(false);
    expect(healthStateSchema.safeParse('warning').success).toBe(true);
    expect(jobStatusSchema.safeParse('success').success).toBe(false);
  });

  it('lists the editors schedule presets', () => {
    expect(SCHEDULE_PRESETS).toEqual([
      '@every 30s',
      '@every 1m',
      '@every 5m',
      '@every 30m',
      '@hourly',
      '@every 6h',
      '@daily',
      '@weekly',
    ]);
    expect(schedulePresetSchema.safeParse('@every 2m').success).toBe(false);
  });
});

describe('time ranges', () => {
  it('lists the health ranges in order with 1h as default, each with its minutes', () => {
    expect(HEALTH_TIME_RANGES).toEqual([
      '15m',
      '1h',
      '2h',
      '3h',
      '6h',
      '12h',
      '1d',
      '2d',
      '3d',
      '1w',
      '2w',
      '3w',
      '1mo',
      '2mo',
      '3mo',
      '6mo',
      '1y',
      '2y',
      '3y',
      '5y',
    ]);
    expect(DEFAULT_HEALTH_TIME_RANGE).toBe('1h');
    expect(Object.keys(HEALTH_TIME_RANGE_MINUTES)).toEqual(HEALTH_TIME_RANGES);
    expect(HEALTH_TIME_RANGE_MINUTES['1w']).toBe(10080);
    expect(HEALTH_TIME_RANGE_MINUTES['5y']).toBe(2592000);
    const minutes = Object.values(HEALTH_TIME_RANGE_MINUTES);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
    expect(healthTimeRangeSchema.safeParse('24h').success).toBe(false);
  });

  it("chooses a check's default range from 1h, 3h … 5y (core §4)", () => {
    expect(CHECK_DEFAULT_TIME_RANGES).toEqual(
      HEALTH_TIME_RANGES.filter((range) => range !== '15m' && range !== '2h'),
    );
  });

  it("lists the picker's relative presets and range types", () => {
    expect(RELATIVE_TIME_RANGE_PRESETS).toEqual([
      '5m',
      '15m',
      '30m',
      '1h',
      '3h',
      '6h',
      '12h',
      '24h',
      '2d',
      '7d',
      '30d',
      '90d',
      '6M',
      '1y',
      '2y',
      '5y',
    ]);
    expect(relativeTimeRangePresetSchema.safeParse('6mo').success).toBe(false);
    expect(TIME_RANGE_TYPES).toEqual(['absolute', 'relative', 'mapped']);
  });
});
