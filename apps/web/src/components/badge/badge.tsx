import clsx from 'clsx';
import type { ReactNode } from 'react';

export const BADGE_TONES = ['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'critical'] as const;
export type BadgeTone = (typeof BADGE_TONES)[number];

const TONE_CLASSES: Record<BadgeTone, string> = {
  gray: 'bg-gray-100 text-gray-700',
  blue: 'bg-blue-50 text-blue-800',
  green: 'bg-green-50 text-green-800',
  yellow: 'bg-yellow-50 text-yellow-800',
  orange: 'bg-orange-50 text-orange-800',
  red: 'bg-red-50 text-red-800',
  critical: 'bg-red-100 text-red-900',
};

/** The stronger fill of a status that must stand out in a table (job statuses). */
const STRONG_TONE_CLASSES: Record<BadgeTone, string> = {
  gray: 'bg-gray-100 text-gray-700',
  blue: 'bg-blue-100 text-blue-800',
  green: 'bg-green-100 text-green-800',
  yellow: 'bg-yellow-100 text-yellow-800',
  orange: 'bg-orange-100 text-orange-800',
  red: 'bg-red-100 text-red-800',
  critical: 'bg-red-200 text-red-900',
};

export interface BadgeProps {
  /** Default 'gray'. */
  tone?: BadgeTone;
  /** A stronger fill and a pill shape. Default false. */
  strong?: boolean;
  className?: string;
  /** The full text on hover; default the text of a string or number child. */
  title?: string;
  children: ReactNode;
}

/** The text a label shows, for its tooltip when it is cut. */
export function textOf(children: ReactNode): string | undefined {
  if (typeof children === 'string') return children;
  if (typeof children === 'number') return String(children);
  return undefined;
}

/**
 * A short coloured label: a severity, a status, a count. A label longer than its container ends
 * in an ellipsis, and its full text shows on hover.
 */
export function Badge({ tone = 'gray', strong = false, className, title, children }: BadgeProps) {
  return (
    <span
      title={title ?? textOf(children)}
      className={clsx(
        'inline-block max-w-full truncate py-0.5 align-middle text-xs font-medium',
        strong ? ['rounded-full px-2', STRONG_TONE_CLASSES[tone]] : ['rounded px-1.5', TONE_CLASSES[tone]],
        className,
      )}
    >
      {children}
    </span>
  );
}
