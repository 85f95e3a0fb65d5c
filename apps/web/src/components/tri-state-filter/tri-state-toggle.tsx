import clsx from 'clsx';
import { Minus, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { filterDisplayValue, nextTriState, type TriState } from '../../lib/url-state/filter-encoding';

export interface TriStateToggleProps {
  /** The value's name; also used in the buttons' accessible names. */
  label: string;
  /** 0 neutral, 1 include, -1 exclude. */
  value: TriState;
  onChange(next: TriState): void;
  /** Shown after the label, e.g. a count. */
  suffix?: ReactNode;
  className?: string;
}

/**
 * Include/exclude control for one filter value (settings §4): neutral goes to include or exclude,
 * and clicking the active state returns to neutral.
 */
export function TriStateToggle({ label, value, onChange, suffix, className }: TriStateToggleProps) {
  return (
    <div
      role="group"
      aria-label={label}
      data-state={value}
      className={clsx('flex items-center gap-1 text-sm', className)}
    >
      <button
        type="button"
        aria-label={`Include ${label}`}
        aria-pressed={value === 1}
        onClick={() => onChange(nextTriState(value, 1))}
        className={clsx(
          'rounded border p-0.5',
          value === 1
            ? 'border-green-600 bg-green-600 text-white'
            : 'border-gray-300 text-gray-500 hover:bg-gray-100',
        )}
      >
        <Plus className="size-3" aria-hidden />
      </button>
      <button
        type="button"
        aria-label={`Exclude ${label}`}
        aria-pressed={value === -1}
        onClick={() => onChange(nextTriState(value, -1))}
        className={clsx(
          'rounded border p-0.5',
          value === -1
            ? 'border-red-600 bg-red-600 text-white'
            : 'border-gray-300 text-gray-500 hover:bg-gray-100',
        )}
      >
        <Minus className="size-3" aria-hidden />
      </button>
      <span
        className={clsx(
          'min-w-0 flex-1 truncate',
          value === -1 && 'text-red-700 line-through',
          value === 1 && 'font-medium',
        )}
      >
        {filterDisplayValue(label, value)}
      </span>
      {suffix}
    </div>
  );
}
