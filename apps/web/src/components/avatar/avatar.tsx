import clsx from 'clsx';
import { useState } from 'react';

/** Up to two initials: first and last word of a name, or the first letter of an e-mail or single word. */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '')
    .replace(/@.*$/, '')
    .split(/[\s._-]+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0][0];
  const last = words.length > 1 ? words[words.length - 1][0] : '';
  return `${first}${last}`.toUpperCase();
}

const SIZES = { sm: 'size-6 text-[10px]', md: 'size-8 text-xs', lg: 'size-12 text-base' } as const;

export interface AvatarProps {
  /** Person or team name; also the accessible name. */
  name?: string | null;
  /** Picture address; initials show when it is missing or fails to load. */
  src?: string | null;
  size?: keyof typeof SIZES;
  className?: string;
}

/** A round picture of a person with an initials fallback (settings §2.10). */
export function Avatar({ name, src, size = 'md', className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const label = name || 'Unknown user';
  const classes = clsx(
    'inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full',
    SIZES[size],
    className,
  );
  if (src && failedSrc !== src) {
    return (
      <img
        src={src}
        alt={label}
        onError={() => setFailedSrc(src)}
        className={clsx(classes, 'object-cover')}
      />
    );
  }
  return (
    <span role="img" aria-label={label} className={clsx(classes, 'bg-gray-200 font-semibold text-gray-700')}>
      <span aria-hidden>{initialsOf(name)}</span>
    </span>
  );
}
