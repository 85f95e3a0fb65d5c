import { Badge, type BadgeTone } from '../badge/badge';

/** Job status colours (settings §4): RUNNING yellow, SUCCESS green, WARNING orange, FAILED and STOPPED red. */
const STATUS_TONES: Record<string, BadgeTone> = {
  RUNNING: 'yellow',
  SUCCESS: 'green',
  WARNING: 'orange',
  FAILED: 'red',
  STOPPED: 'red',
};

export function JobStatusBadge({ status }: { status: string }) {
  return (
    <Badge strong tone={STATUS_TONES[status] ?? 'gray'}>
      {status}
    </Badge>
  );
}
