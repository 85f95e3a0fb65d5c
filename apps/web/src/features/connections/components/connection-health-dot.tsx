import { connectionHealthColour } from '@opsdeck/contracts';
import clsx from 'clsx';

const COLOUR_CLASSES = {
  green: 'bg-green-500',
  red: 'bg-red-500',
  yellow: 'bg-yellow-400',
  gray: 'bg-gray-400',
} as const;

/** A connection's health (settings §3): healthy green, unhealthy red, warning yellow, other gray. */
export function ConnectionHealthDot({ status }: { status: string | null | undefined }) {
  const colour = connectionHealthColour(status);
  return (
    <span
      role="img"
      aria-label={status ?? 'not tested'}
      data-color={colour}
      className={clsx('inline-block size-2.5 shrink-0 rounded-full', COLOUR_CLASSES[colour])}
    />
  );
}
