import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CARD_WIDTH,
  clampCardWidth,
  DEFAULT_PREFERENCES,
  parsePreferences,
  PREFERENCES_STORAGE_KEY,
} from './preferences';
import { createPreferencesStore } from './preferences-store';
import { listTimezones, timezoneOffsetMinutes } from './timezones';
import {
  PreferencesProvider,
  useDateFormatter,
  usePreferences,
  useShowHiddenComponents,
} from './use-preferences';

beforeEach(() => window.localStorage.clear());

describe('preference defaults and bounds', () => {
  it('defaults to deleted configs hidden, card width 554, timestamp format and the browser zone', () => {
    expect(DEFAULT_PREFERENCES).toEqual({
      showDeletedConfigs: false,
      cardWidth: 554,
      dateTimeFormat: 'timestamp',
      timezone: 'browser',
    });
  });

  it('keeps the card width within 250–768 on a step of 2', () => {
    expect(CARD_WIDTH).toEqual({ min: 250, max: 768, step: 2, default: 554 });
    expect(clampCardWidth(100)).toBe(250);
    expect(clampCardWidth(1000)).toBe(768);
    expect(clampCardWidth(301)).toBe(302);
    expect(clampCardWidth(Number.NaN)).toBe(554);
  });

  it('falls back per field on invalid stored values', () => {
    expect(
      parsePreferences({
        showDeletedConfigs: 'yes',
        cardWidth: 400,
        dateTimeFormat: 'weird',
        timezone: 'Mars/Olympus',
      }),
    ).toEqual({ ...DEFAULT_PREFERENCES, cardWidth: 400 });
    expect(parsePreferences('garbage')).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences({ timezone: 'Europe/Paris', dateTimeFormat: 'medium' })).toMatchObject({
      timezone: 'Europe/Paris',
      dateTimeFormat: 'medium',
    });
  });
});

describe('preferences store', () => {
  it('persists changes in localStorage and reads them back', () => {
    const store = createPreferencesStore(window.localStorage);
    store.update({ showDeletedConfigs: true, cardWidth: 600 });
    expect(JSON.parse(window.localStorage.getItem(PREFERENCES_STORAGE_KEY) ?? '{}')).toMatchObject({
      showDeletedConfigs: true,
      cardWidth: 600,
    });
    expect(createPreferencesStore(window.localStorage).getSnapshot()).toMatchObject({
      showDeletedConfigs: true,
      cardWidth: 600,
    });
  });

  it('survives corrupt storage', () => {
    window.localStorage.setItem(PREFERENCES_STORAGE_KEY, '{not json');
    expect(createPreferencesStore(window.localStorage).getSnapshot()).toEqual(DEFAULT_PREFERENCES);
  });

  it('follows changes made in another tab', () => {
    const store = createPreferencesStore(window.localStorage);
    let notified = 0;
    const unsubscribe = store.subscribe(() => (notified += 1));
    window.localStorage.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify({ dateTimeFormat: 'full' }));
    window.dispatchEvent(new StorageEvent('storage', { key: PREFERENCES_STORAGE_KEY }));
    expect(notified).toBe(1);
    expect(store.getSnapshot().dateTimeFormat).toBe('full');
    unsubscribe();
  });
});

describe('usePreferences', () => {
  it('re-renders every reader when a preference changes', () => {
    const store = createPreferencesStore(window.localStorage);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <PreferencesProvider store={store}>{children}</PreferencesProvider>
    );
    const { result } = renderHook(() => ({ preferences: usePreferences(), dates: useDateFormatter() }), {
      wrapper,
    });
    expect(result.current.preferences.dateTimeFormat).toBe('timestamp');
    act(() => {
      result.current.preferences.setPreference('timezone', 'Asia/Kolkata');
    });
    expect(result.current.dates.formatDate('2026-11-18T09:05:03.042Z')).toBe('2026-11-18 14:35:03.042');
    act(() => result.current.preferences.setPreference('dateTimeFormat', 'full'));
    expect(result.current.dates.formatDate('2026-11-18T09:05:03.042Z')).toBe(
      'Wednesday, November 18, 2026 2:35:03 PM +05:30',
    );
    expect(
      result.current.dates.formatAge('2026-11-18T09:00:00.000Z', '2026-11-18T11:00:00.000Z'),
    ).toMatchObject({
      text: '2h',
      title: '2026-11-18 14:30:00.000',
    });
    act(() => result.current.preferences.resetPreferences());
    expect(result.current.preferences).toMatchObject(DEFAULT_PREFERENCES);
  });
});

describe('useShowHiddenComponents', () => {
  it('is stored in the URL as yes or no, default yes', () => {
    const { result } = renderHook(() => ({ show: useShowHiddenComponents(), search: useLocation().search }), {
      wrapper: ({ children }) => <MemoryRouter>{children}</MemoryRouter>,
    });
    expect(result.current.show[0]).toBe(true);
    act(() => result.current.show[1](false));
    expect(result.current.search).toBe('?showHiddenComponents=no');
    expect(result.current.show[0]).toBe(false);
  });
});

describe('timezones', () => {
  it('reads offsets from Intl, including daylight saving', () => {
    expect(timezoneOffsetMinutes('UTC')).toBe(0);
    expect(timezoneOffsetMinutes('Asia/Kolkata')).toBe(330);
    expect(timezoneOffsetMinutes('America/New_York', new Date('2026-01-15T12:00:00Z'))).toBe(-300);
    expect(timezoneOffsetMinutes('America/New_York', new Date('2026-07-15T12:00:00Z'))).toBe(-240);
  });

  it('sorts zones by UTC offset, then name, with labels', () => {
    const list = listTimezones(new Date('2026-01-15T12:00:00Z'), [
      'Asia/Kolkata',
      'UTC',
      'America/New_York',
      'Europe/London',
    ]);
    expect(list.map((option) => option.label)).toEqual([
      '(UTC-05:00) America/New_York',
      '(UTC+00:00) Europe/London',
      '(UTC+00:00) UTC',
      '(UTC+05:30) Asia/Kolkata',
    ]);
  });

  it('lists every zone the runtime knows, in offset order', () => {
    const list = listTimezones();
    expect(list.length).toBeGreaterThan(300);
    for (let index = 1; index < list.length; index += 1) {
      expect(list[index].offsetMinutes).toBeGreaterThanOrEqual(list[index - 1].offsetMinutes);
    }
  });
});
