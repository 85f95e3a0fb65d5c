import type { PlaybookActionStatus, PlaybookRunStatus } from '@opsdeck/contracts';
import { Badge, type BadgeTone } from '../../../components/badge/badge';

const TONES: Record<PlaybookRunStatus | PlaybookActionStatus, BadgeTone> = {
  scheduled: 'gray',
  running: 'blue',
  pending_approval: 'yellow',
  sleeping: 'gray',
  retrying: 'orange',
  completed: 'green',
  failed: 'red',
  cancelled: 'gray',
  timed_out: 'red',
  skipped: 'gray',
};

/** A run's or an action's status, as the ecosystem names it. */
export function RunStatusBadge({ status }: { status: PlaybookRunStatus | PlaybookActionStatus }) {
  return <Badge tone={TONES[status]}>{status.replace('_', ' ')}</Badge>;
}

/** Milliseconds between two times as `1m 5s`, `850ms`, or '' when not started. */
export function durationText(start: string | null, end: string | null, now = Date.now()): string {
  if (!start) return '';
  const ms = (end ? new Date(end).getTime() : now) - new Date(start).getTime();
  if (ms < 1000) return `${Math.max(0, ms)}ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
