import clsx from 'clsx';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { dayjs } from '../../lib/format/dayjs';

const WEEKDAYS = ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'];

export interface CalendarProps {
  /** Any day of the month to show, as YYYY-MM-DD. */
  month: string;
  onMonthChange(month: string): void;
  /** Selected range ends as YYYY-MM-DD. */
  from?: string;
  to?: string;
  onSelectDay(day: string): void;
}

/** A month grid for picking the days of an absolute range. Days are plain dates (YYYY-MM-DD). */
export function Calendar({ month, onMonthChange, from, to, onSelectDay }: CalendarProps) {
  const first = dayjs(month).startOf('month');
  const start = first.subtract(first.day(), 'day');
  const weeks = Array.from({ length: 6 }, (_, week) =>
    Array.from({ length: 7 }, (_, day) => start.add(week * 7 + day, 'day').format('YYYY-MM-DD')),
  );
  const title = first.format('MMMM YYYY');

  return (
    <div className="w-64 text-sm">
      <div className="mb-2 flex items-center justify-between">
        <button
          type="button"
          aria-label="Previous month"
          onClick={() => onMonthChange(first.subtract(1, 'month').format('YYYY-MM-DD'))}
          className="rounded p-1 hover:bg-gray-100"
        >
          <ChevronLeft className="size-4" aria-hidden />
        </button>
        <span className="font-medium text-gray-800" aria-live="polite">
          {title}
        </span>
        <button
          type="button"
          aria-label="Next month"
          onClick={() => onMonthChange(first.add(1, 'month').format('YYYY-MM-DD'))}
          className="rounded p-1 hover:bg-gray-100"
        >
          <ChevronRight className="size-4" aria-hidden />
        </button>
      </div>
      <table role="grid" aria-label={title} className="w-full border-collapse text-center">
        <thead>
          <tr>
            {WEEKDAYS.map((weekday) => (
              <th key={weekday} scope="col" className="py-1 text-xs font-normal text-gray-500">
                {weekday}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((days) => (
            <tr key={days[0]}>
              {days.map((day) => {
                const isEnd = day === from || day === to;
                const inRange = from && to ? day > from && day < to : false;
                const outside = !day.startsWith(first.format('YYYY-MM'));
                return (
                  <td key={day} className="p-0.5">
                    <button
                      type="button"
                      aria-label={dayjs(day).format('MMMM D, YYYY')}
                      aria-pressed={isEnd}
                      onClick={() => onSelectDay(day)}
                      className={clsx(
                        'size-8 rounded',
                        isEnd
                          ? 'bg-blue-600 text-white'
                          : inRange
                            ? 'bg-blue-100 text-blue-900'
                            : 'hover:bg-gray-100',
                        outside && !isEnd && 'text-gray-400',
                      )}
                    >
                      {Number(day.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
