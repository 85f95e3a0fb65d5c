import clsx from 'clsx';
import { groupStatus, HEALTH_COLOR_CLASSES, healthColor } from '../../lib/format/health';

export interface StatusDotProps {
  /** A health word: healthy (green), unhealthy (red), mixed (orange), or any status of the generic colour rule. */
  status: string | null | undefined;
  /** Accessible name; defaults to the status. */
  label?: string;
  size?: 'sm' | 'md';
  className?: string;
}

/** A coloured dot for a health status (core §4). */
export function StatusDot({ status, label, size = 'md', className }: StatusDotProps) {
  const color = healthColor(status);
  return (
    <span
      role="img"
      aria-label={label ?? status ?? 'unknown'}
      data-color={color}
      className={clsx(
        'inline-block shrink-0 rounded-full',
        size === 'sm' ? 'size-2' : 'size-2.5',
        HEALTH_COLOR_CLASSES[color].dot,
        className,
      )}
    />
  );
}

export interface GroupStatusDotProps extends Omit<StatusDotProps, 'status'> {
  /** Child statuses: `true`/'healthy' count as healthy. */
  children: readonly (boolean | string | null | undefined)[];
}

/** A group's dot: green only if all children are healthy, orange if some are, red if none. */
export function GroupStatusDot({ children, ...rest }: GroupStatusDotProps) {
  return <StatusDot status={groupStatus(children)} {...rest} />;
}
