import type { IncidentSeverity } from '@opsdeck/contracts';
import clsx from 'clsx';

/** One colour per severity the contract lists (a new severity fails the type check here). */
const SEVERITY_CLASSES: Record<string, string> = {
  info: 'bg-gray-100 text-gray-700',
  warning: 'bg-yellow-50 text-yellow-800',
  low: 'bg-blue-50 text-blue-800',
  medium: 'bg-yellow-50 text-yellow-800',
  high: 'bg-orange-50 text-orange-800',
  critical: 'bg-red-50 text-red-800',
  blocker: 'bg-red-100 text-red-900',
} satisfies Record<IncidentSeverity, string>;

export function SeverityBadge({ severity }: { severity: string }) {
  return (
    <span
      className={clsx(
        'rounded px-1.5 py-0.5 text-xs font-medium',
        SEVERITY_CLASSES[severity] ?? SEVERITY_CLASSES.info,
      )}
    >
      {severity}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const done = status === 'resolved' || status === 'closed';
  return (
    <span
      className={clsx(
        'rounded px-1.5 py-0.5 text-xs font-medium',
        done ? 'bg-green-50 text-green-800' : 'bg-gray-100 text-gray-800',
      )}
    >
      {status}
    </span>
  );
}
