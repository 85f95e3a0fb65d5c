export interface TimezoneOption {
  /** IANA zone name. */
  zone: string;
  /** Current offset from UTC in minutes. */
  offsetMinutes: number;
  /** '(UTC+05:30) Asia/Kolkata'. */
  label: string;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, '0');
  return `UTC${sign}${hours}:${String(absolute % 60).padStart(2, '0')}`;
}

/** Offset of a zone from UTC in minutes at `at`, read from Intl so no zone data is bundled. */
export function timezoneOffsetMinutes(zone: string, at: Date = new Date()): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const value = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value ?? 0);
  const wallClock = Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
  const instant = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((wallClock - instant) / 60_000);
}

/** Zone names the runtime supports, with UTC added when the runtime omits it. */
function supportedZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** Every IANA zone sorted by UTC offset (then by name), for the Timezone preference (settings §2.9). */
export function listTimezones(
  at: Date = new Date(),
  zones: readonly string[] = supportedZones(),
): TimezoneOption[] {
  return zones
    .map((zone) => {
      const offsetMinutes = timezoneOffsetMinutes(zone, at);
      return { zone, offsetMinutes, label: `(${formatOffset(offsetMinutes)}) ${zone}` };
    })
    .sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.zone.localeCompare(b.zone));
}

/** The zone the browser uses. */
export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
