import clsx from 'clsx';

export interface UptimeBarProps {
  passed: number;
  failed: number;
  /** Accessible name, e.g. 'orders-api uptime'. */
  label: string;
  className?: string;
}

/**
 * A compact bar of passed against failed over the selected range: the green share is the uptime,
 * the red share the failures; grey when nothing ran. A meter for assistive technology.
 */
export function UptimeBar({ passed, failed, label, className }: UptimeBarProps) {
  const total = passed + failed;
  const percent = total > 0 ? (passed / total) * 100 : 0;
  return (
    <span
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={total > 0 ? Math.round(percent * 10) / 10 : undefined}
      aria-valuetext={total > 0 ? `${passed} passed, ${failed} failed` : 'no runs'}
      title={total > 0 ? `${passed} passed, ${failed} failed` : 'No runs in the range'}
      className={clsx(
        'flex h-1.5 w-16 shrink-0 overflow-hidden rounded-full',
        total > 0 ? 'bg-red-400' : 'bg-gray-200',
        className,
      )}
    >
      {total > 0 && <span className="h-full bg-green-500" style={{ width: `${percent}%` }} />}
    </span>
  );
}
