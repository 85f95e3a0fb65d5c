import { RELATIVE_TIME_RANGE_PRESETS } from '@opsdeck/contracts';
import clsx from 'clsx';
import { CalendarDays, ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { BROWSER_TIMEZONE, dayjs, toZoned } from '../../lib/format/dayjs';
import { usePreferences } from '../../lib/preferences/use-preferences';
import { useTimeRangeParams, type TimeRange } from '../../lib/url-state/time-range-params';
import { Calendar } from './calendar';
import { pushRecentRange, readRecentRanges, type AbsoluteTimeRange } from './recent-ranges';
import {
  FUTURE_RELATIVE_PRESETS,
  MAPPED_RANGES,
  mappedTimeRange,
  relativeTimeRange,
  timeRangeLabel,
} from './time-range';
import { Popover } from '../popover/popover';

const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm';

function toInputValue(iso: string, timezone: string): string {
  const value = toZoned(iso, timezone);
  return value.isValid() ? value.format(INPUT_FORMAT) : '';
}

/** Reads a datetime-local value as wall-clock time in the user's zone. */
function inputToIso(text: string, timezone: string): string | undefined {
  if (!text) return undefined;
  const parsed = timezone === BROWSER_TIMEZONE ? dayjs(text) : dayjs.tz(text, timezone);
  return parsed.isValid() ? parsed.toISOString() : undefined;
}

function sameRange(a: TimeRange | undefined, b: TimeRange): boolean {
  if (!a || a.type !== b.type) return false;
  if (a.type === 'relative' && b.type === 'relative') return a.range === b.range;
  if (a.type !== 'relative' && b.type !== 'relative') return a.from === b.from && a.to === b.to;
  return false;
}

export interface TimeRangePickerProps {
  value: TimeRange | undefined;
  /** Receives the chosen range, or undefined from Clear. */
  onChange(range: TimeRange | undefined): void;
  /** 'past' (default) offers relative and mapped ranges back in time; 'future' offers Next … and Indefinitely. */
  direction?: 'past' | 'future';
  /** Button text without a range. Default 'Select time range'. */
  placeholder?: string;
  className?: string;
}

/**
 * Absolute from/to with a calendar and recent ranges, relative presets and mapped quick ranges
 * (settings §2.10). Submit stays disabled until both ends are set.
 */
export function TimeRangePicker({
  value,
  onChange,
  direction = 'past',
  placeholder = 'Select time range',
  className,
}: TimeRangePickerProps) {
  const { timezone } = usePreferences();
  const label = timeRangeLabel(value, timezone) ?? placeholder;
  return (
    <Popover
      className={clsx('inline-block', className)}
      trigger={
        <>
          <CalendarDays className="size-4 text-gray-500" aria-hidden />
          <span className="max-w-72 truncate">{label}</span>
          <ChevronDown className="size-4 text-gray-400" aria-hidden />
        </>
      }
      triggerLabel={`Time range: ${label}`}
      triggerClassName="inline-flex items-center gap-2 rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm text-gray-800 hover:bg-gray-50"
      placement="bottom end"
      panelClassName="p-4"
    >
      {({ close }) => (
        <PickerPanel
          value={value}
          timezone={timezone}
          direction={direction}
          onPick={(range) => {
            onChange(range);
            close();
          }}
        />
      )}
    </Popover>
  );
}

interface PickerPanelProps {
  value: TimeRange | undefined;
  timezone: string;
  direction: 'past' | 'future';
  onPick(range: TimeRange | undefined): void;
}

function PickerPanel({ value, timezone, direction, onPick }: PickerPanelProps) {
  const [fromText, setFromText] = useState(
    value?.type === 'absolute' ? toInputValue(value.from, timezone) : '',
  );
  const [toText, setToText] = useState(value?.type === 'absolute' ? toInputValue(value.to, timezone) : '');
  const [month, setMonth] = useState(
    (fromText || toZoned(new Date(), timezone).format(INPUT_FORMAT)).slice(0, 10),
  );
  const [recent, setRecent] = useState(readRecentRanges);
  const presets = direction === 'future' ? FUTURE_RELATIVE_PRESETS : RELATIVE_TIME_RANGE_PRESETS;
  const canSubmit = Boolean(inputToIso(fromText, timezone) && inputToIso(toText, timezone));

  const selectDay = (day: string) => {
    const fromDay = fromText.slice(0, 10);
    if (!fromText || toText) {
      setFromText(`${day}T00:00`);
      setToText('');
    } else if (day >= fromDay) {
      setToText(`${day}T23:59`);
    } else {
      setFromText(`${day}T00:00`);
      setToText(`${fromDay}T23:59`);
    }
  };

  const submit = () => {
    const from = inputToIso(fromText, timezone);
    const to = inputToIso(toText, timezone);
    if (!from || !to) return;
    const range: AbsoluteTimeRange =
      from <= to ? { type: 'absolute', from, to } : { type: 'absolute', from: to, to: from };
    setRecent(pushRecentRange(range));
    onPick(range);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-6 md:flex-row">
        <section aria-label="Absolute time range" className="flex flex-col gap-2">
          <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Absolute time range</h3>
          <label className="flex flex-col gap-1">
            <span className="text-xs text-gray-600">From</span>
            <input
              type="datetime-local"
              value={fromText}
              onChange={(event) => setFromText(event.target.value)}
              className="rounded-md border border-gray-300 px-2 py-1"
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-xs text-gray-600">To</span>
            <input
              type="datetime-local"
              value={toText}
              onChange={(event) => setToText(event.target.value)}
              className="rounded-md border border-gray-300 px-2 py-1"
            />
          </label>
          <Calendar
            month={month}
            onMonthChange={setMonth}
            from={fromText.slice(0, 10) || undefined}
            to={toText.slice(0, 10) || undefined}
            onSelectDay={selectDay}
          />
          <button
            type="button"
            disabled={!canSubmit}
            onClick={submit}
            className="rounded-md bg-blue-600 px-3 py-1.5 font-medium text-white hover:bg-blue-700 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Submit
          </button>
          {recent.length > 0 && (
            <div className="flex flex-col gap-1">
              <h4 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Recent</h4>
              <ul aria-label="Recent time ranges" className="flex flex-col">
                {recent.map((range) => (
                  <li key={`${range.from}/${range.to}`}>
                    <button
                      type="button"
                      onClick={() => onPick(range)}
                      className="w-full rounded px-2 py-1 text-left hover:bg-gray-100"
                    >
                      {timeRangeLabel(range, timezone)}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
        <section aria-label="Relative time ranges" className="flex flex-col gap-1">
          <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Relative</h3>
          <ul className="grid grid-cols-2 gap-x-2 md:grid-cols-1">
            {presets.map((preset) => {
              const range = relativeTimeRange(preset);
              return (
                <li key={preset}>
                  <PresetButton range={range} active={sameRange(value, range)} onPick={onPick} />
                </li>
              );
            })}
          </ul>
        </section>
        {direction === 'past' && (
          <section aria-label="Quick ranges" className="flex flex-col gap-1">
            <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">Quick ranges</h3>
            <ul className="grid grid-cols-2 gap-x-2 md:grid-cols-1">
              {MAPPED_RANGES.map((mapped) => {
                const range = mappedTimeRange(mapped);
                return (
                  <li key={mapped.display}>
                    <PresetButton range={range} active={sameRange(value, range)} onPick={onPick} />
                  </li>
                );
              })}
            </ul>
          </section>
        )}
      </div>
      <div className="flex justify-end border-t border-gray-100 pt-3">
        <button
          type="button"
          onClick={() => onPick(undefined)}
          className="rounded-md px-3 py-1.5 text-gray-700 hover:bg-gray-100"
        >
          Clear
        </button>
      </div>
    </div>
  );
}

function PresetButton({
  range,
  active,
  onPick,
}: {
  range: TimeRange;
  active: boolean;
  onPick(range: TimeRange): void;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={() => onPick(range)}
      className={clsx(
        'w-full rounded px-2 py-1 text-left whitespace-nowrap',
        active ? 'bg-blue-50 font-medium text-blue-700' : 'hover:bg-gray-100',
      )}
    >
      {range.display}
    </button>
  );
}

/** The picker bound to the URL (rangeType, display, from, to, range); Clear removes the range. Needs a router. */
export function UrlTimeRangePicker(props: Omit<TimeRangePickerProps, 'value' | 'onChange'>) {
  const { timeRange, setTimeRange, clearTimeRange } = useTimeRangeParams();
  return (
    <TimeRangePicker
      {...props}
      value={timeRange}
      onChange={(range) => (range ? setTimeRange(range) : clearTimeRange())}
    />
  );
}
