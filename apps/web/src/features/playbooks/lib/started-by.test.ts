import { describe, expect, it } from 'vitest';
import { startedByText } from './started-by';

describe('startedByText', () => {
  it('says who or what started a run', () => {
    expect(startedByText({ type: 'person', detail: 'Ann' })).toBe('by Ann');
    expect(startedByText({ type: 'person', detail: null })).toBe('by a person');
    expect(startedByText({ type: 'event', detail: 'check.failed' })).toBe('by event check.failed');
    expect(startedByText({ type: 'webhook', detail: 'deploy' })).toBe('by webhook deploy');
    expect(startedByText({ type: 'schedule', detail: '@every 1h' })).toBe('by schedule @every 1h');
    expect(startedByText({ type: 'notification', detail: null })).toBe('by notification');
  });
});
