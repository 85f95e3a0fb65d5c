import { describe, expect, it } from 'vitest';
import { groupStatus, healthColor, showsLastRunAge, showsTransitionTime } from './health';

describe('healthColor', () => {
  it('is red for degraded, missing and unhealthy', () => {
    expect(healthColor('degraded')).toBe('red');
    expect(healthColor('missing')).toBe('red');
    expect(healthColor('unhealthy')).toBe('red');
    expect(healthColor('Unhealthy')).toBe('red');
  });

  it('is grey for unknown and suspended', () => {
    expect(healthColor('unknown')).toBe('grey');
    expect(healthColor('suspended')).toBe('grey');
  });

  it('is orange for warning, warn and mixed', () => {
    expect(healthColor('warning')).toBe('orange');
    expect(healthColor('warn')).toBe('orange');
    expect(healthColor('mixed')).toBe('orange');
  });

  it('is green otherwise', () => {
    expect(healthColor('healthy')).toBe('green');
    expect(healthColor('ok')).toBe('green');
    expect(healthColor('')).toBe('green');
    expect(healthColor(undefined)).toBe('green');
  });
});

describe('groupStatus', () => {
  it('is good only if all children are healthy', () => {
    expect(groupStatus([true, true])).toBe('healthy');
    expect(groupStatus(['healthy', 'Healthy'])).toBe('healthy');
  });

  it('is mixed if some are healthy', () => {
    expect(groupStatus([true, false])).toBe('mixed');
    expect(groupStatus(['healthy', 'unhealthy', 'unhealthy'])).toBe('mixed');
  });

  it('is unhealthy if none are, unknown when empty', () => {
    expect(groupStatus([false, 'unhealthy'])).toBe('unhealthy');
    expect(groupStatus([])).toBe('unknown');
  });
});

describe('health column visibility', () => {
  const now = '2026-11-18T12:00:00.000Z';
  it('shows the last-run age only when older than 1 hour and under 7 days', () => {
    expect(showsLastRunAge('2026-11-18T11:30:00.000Z', now)).toBe(false);
    expect(showsLastRunAge('2026-11-18T11:00:00.000Z', now)).toBe(false);
    expect(showsLastRunAge('2026-11-18T10:59:00.000Z', now)).toBe(true);
    expect(showsLastRunAge('2026-11-12T12:00:00.000Z', now)).toBe(true);
    expect(showsLastRunAge('2026-11-11T12:00:00.000Z', now)).toBe(false);
    expect(showsLastRunAge('0001-01-01T00:00:00Z', now)).toBe(false);
  });

  it('shows the transition time if under 7 days', () => {
    expect(showsTransitionTime('2026-11-18T11:59:00.000Z', now)).toBe(true);
    expect(showsTransitionTime('2026-11-11T12:00:01.000Z', now)).toBe(true);
    expect(showsTransitionTime('2026-11-11T12:00:00.000Z', now)).toBe(false);
    expect(showsTransitionTime(null, now)).toBe(false);
  });
});
