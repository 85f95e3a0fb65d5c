import { dayjs, type DateInput } from './dayjs';
import { isEmptyDate } from './empty-date';

export type HealthColor = 'red' | 'grey' | 'orange' | 'green';

const RED = new Set(['degraded', 'missing', 'unhealthy']);
const GREY = new Set(['unknown', 'suspended']);
const ORANGE = new Set(['warning', 'warn', 'mixed']);

/**
 * Generic health colours (core §4, settings §4): degraded, missing and unhealthy are red;
 * unknown and suspended grey; warning, warn and mixed orange; anything else green.
 * Matching ignores case and surrounding spaces.
 */
export function healthColor(status: string | null | undefined): HealthColor {
  const key = (status ?? '').trim().toLowerCase();
  if (RED.has(key)) return 'red';
  if (GREY.has(key)) return 'grey';
  if (ORANGE.has(key)) return 'orange';
  return 'green';
}

/** Tailwind classes per health colour, for dots, badges and text. */
export const HEALTH_COLOR_CLASSES: Record<HealthColor, { dot: string; text: string }> = {
  red: { dot: 'bg-red-500', text: 'text-red-700' },
  grey: { dot: 'bg-gray-400', text: 'text-gray-600' },
  orange: { dot: 'bg-orange-400', text: 'text-orange-700' },
  green: { dot: 'bg-green-500', text: 'text-green-700' },
};

export type GroupStatus = 'healthy' | 'mixed' | 'unhealthy' | 'unknown';

/**
 * A group's status dot (core §4): good only if all children are healthy, mixed if some are,
 * unhealthy if none are. A child is healthy when it is `true` or the status 'healthy'.
 * An empty group is 'unknown'.
 */
export function groupStatus(children: readonly (boolean | string | null | undefined)[]): GroupStatus {
  if (children.length === 0) return 'unknown';
  const healthy = children.filter(
    (child) => child === true || (typeof child === 'string' && child.toLowerCase() === 'healthy'),
  ).length;
  if (healthy === children.length) return 'healthy';
  return healthy > 0 ? 'mixed' : 'unhealthy';
}

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

/** The health column shows a last-run age only when it is older than 1 hour and under 7 days (core §9). */
export function showsLastRunAge(
  lastRuntime: DateInput | null | undefined,
  now: DateInput = new Date(),
): boolean {
  if (lastRuntime === null || lastRuntime === undefined || isEmptyDate(lastRuntime)) return false;
  const age = dayjs(now).diff(dayjs(lastRuntime));
  return age > HOUR_MS && age < WEEK_MS;
}

/** The transition time is shown only when it is under 7 days old (core §9). */
export function showsTransitionTime(
  transitionTime: DateInput | null | undefined,
  now: DateInput = new Date(),
): boolean {
  if (transitionTime === null || transitionTime === undefined || isEmptyDate(transitionTime)) return false;
  return dayjs(now).diff(dayjs(transitionTime)) < WEEK_MS;
}
