import clsx from 'clsx';

/** Job status colours (settings §4): RUNNING yellow, SUCCESS green, WARNING orange, FAILED and STOPPED red. */
const STATUS_CLASSES: Record<string, string> = {
  RUNNING: 'bg-yellow-100 text-yellow-800',
  SUCCESS: 'bg-green-100 text-green-800',
  WARNING: 'bg-orange-100 text-orange-800',
  FAILED: 'bg-red-100 text-red-800',
  STOPPED: 'bg-red-100 text-red-800',
};

export function JobStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={clsx(
        'inline-block rounded-full px-2 py-0.5 text-xs font-medium',
        STATUS_CLASSES[status] ?? 'bg-gray-100 text-gray-700',
      )}
    >
      {status}
    </span>
  );
}
