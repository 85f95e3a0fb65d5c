import clsx from 'clsx';

/** The drawn width: the value clamped between 5 and 100 (settings §9). */
export function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return 5;
  return Math.min(100, Math.max(5, value));
}

export type ProgressColor = 'green' | 'orange' | 'red' | 'grey';

/** Green above 0, orange above 75, red above 90 (settings §9); grey at 0 or below. */
export function progressColor(value: number): ProgressColor {
  if (value > 90) return 'red';
  if (value > 75) return 'orange';
  if (value > 0) return 'green';
  return 'grey';
}

const COLOR_CLASSES: Record<ProgressColor, string> = {
  green: 'bg-green-500',
  orange: 'bg-orange-400',
  red: 'bg-red-500',
  grey: 'bg-gray-300',
};

export interface ProgressBarProps {
  /** Percentage; the bar is drawn between 5 and 100. */
  value: number;
  /** Accessible name. */
  label: string;
  /** Shows the rounded percentage beside the bar. Default false. */
  showValue?: boolean;
  className?: string;
}

/** A usage bar coloured by how full it is. */
export function ProgressBar({ value, label, showValue = false, className }: ProgressBarProps) {
  const width = clampProgress(value);
  const color = progressColor(value);
  const shown = Number.isFinite(value) ? Math.round(value) : 0;
  return (
    <div className={clsx('flex items-center gap-2', className)}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, Math.max(0, shown))}
        data-color={color}
        className="h-2 min-w-16 flex-1 overflow-hidden rounded-full bg-gray-100"
      >
        <div className={clsx('h-full rounded-full', COLOR_CLASSES[color])} style={{ width: `${width}%` }} />
      </div>
      {showValue && <span className="text-xs text-gray-600 tabular-nums">{shown}%</span>}
    </div>
  );
}
