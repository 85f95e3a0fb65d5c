import { z } from 'zod';

/**
 * The schedule presets of the health-check and catalog-scraper editors (settings §3 "Schedule
 * presets"). Any cron expression or `@every <duration>` is a valid schedule too: these are the
 * editors' choices and the examples of the JSON Schema, not the set of valid schedules.
 */
export const SCHEDULE_PRESETS = [
  '@every 30s',
  '@every 1m',
  '@every 5m',
  '@every 30m',
  '@hourly',
  '@every 6h',
  '@daily',
  '@weekly',
] as const;
export const schedulePresetSchema = z.enum(SCHEDULE_PRESETS);
export type SchedulePreset = z.infer<typeof schedulePresetSchema>;
