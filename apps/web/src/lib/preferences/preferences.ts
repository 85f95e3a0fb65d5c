import { BROWSER_TIMEZONE } from '../format/dayjs';
import { DATE_TIME_FORMATS, DEFAULT_DATE_TIME_FORMAT, type DateTimeFormat } from '../format/date';

/** Card Width slider bounds in px (settings §2.9, §5). */
export const CARD_WIDTH = { min: 250, max: 768, step: 2, default: 554 } as const;

/** Display preferences kept in the browser (settings §2.9). Show hidden components lives in the URL. */
export interface Preferences {
  /** Show deleted configs; default no. */
  showDeletedConfigs: boolean;
  /** Card width in px, 250–768 in steps of 2; default 554. */
  cardWidth: number;
  /** Date/Time Format; default timestamp. */
  dateTimeFormat: DateTimeFormat;
  /** 'browser' (Browser default) or an IANA zone name. */
  timezone: string;
}

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({
  showDeletedConfigs: false,
  cardWidth: CARD_WIDTH.default,
  dateTimeFormat: DEFAULT_DATE_TIME_FORMAT,
  timezone: BROWSER_TIMEZONE,
});

/** localStorage key of the preferences. */
export const PREFERENCES_STORAGE_KEY = 'opsdeck.preferences';

/** Clamps a card width into 250–768 and onto the step of 2. */
export function clampCardWidth(width: number): number {
  if (!Number.isFinite(width)) return CARD_WIDTH.default;
  const clamped = Math.min(CARD_WIDTH.max, Math.max(CARD_WIDTH.min, width));
  return CARD_WIDTH.min + Math.round((clamped - CARD_WIDTH.min) / CARD_WIDTH.step) * CARD_WIDTH.step;
}

/** True for 'browser' and for zone names the runtime knows. */
export function isKnownTimezone(zone: string): boolean {
  if (zone === BROWSER_TIMEZONE) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads stored preferences field by field: anything missing or invalid (hand-edited storage,
 * an older version) falls back to its default instead of discarding the rest.
 */
export function parsePreferences(raw: unknown): Preferences {
  const record = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const { showDeletedConfigs, cardWidth, dateTimeFormat, timezone } = record;
  return {
    showDeletedConfigs:
      typeof showDeletedConfigs === 'boolean' ? showDeletedConfigs : DEFAULT_PREFERENCES.showDeletedConfigs,
    cardWidth: typeof cardWidth === 'number' ? clampCardWidth(cardWidth) : DEFAULT_PREFERENCES.cardWidth,
    dateTimeFormat: DATE_TIME_FORMATS.includes(dateTimeFormat as DateTimeFormat)
      ? (dateTimeFormat as DateTimeFormat)
      : DEFAULT_PREFERENCES.dateTimeFormat,
    timezone:
      typeof timezone === 'string' && isKnownTimezone(timezone) ? timezone : DEFAULT_PREFERENCES.timezone,
  };
}

/** Normalises a partial update the same way stored values are read. */
export function applyPreferences(current: Preferences, patch: Partial<Preferences>): Preferences {
  return parsePreferences({ ...current, ...patch });
}
