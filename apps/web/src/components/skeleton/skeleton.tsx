import clsx from 'clsx';

/** A grey pulsing block standing in for content that is loading. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={clsx('animate-pulse rounded bg-gray-200', className ?? 'h-4 w-full')} />;
}

export interface PageSkeletonProps {
  /** Number of content lines. Default 6. */
  lines?: number;
  /** Accessible text announced while loading. Default 'Loading'. */
  label?: string;
  className?: string;
}

/** The loading state of a page or panel: a title bar and a few lines. */
export function PageSkeleton({ lines = 6, label = 'Loading', className }: PageSkeletonProps) {
  return (
    <div
      role="status"
      aria-label={label}
      aria-busy="true"
      className={clsx('flex flex-col gap-3 p-4', className)}
    >
      <Skeleton className="h-6 w-1/3" />
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} className={clsx('h-4', index % 3 === 2 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}
