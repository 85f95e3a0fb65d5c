import type { IncidentSeverity } from '@opsdeck/contracts';
import { Badge, type BadgeTone } from '../../../components/badge/badge';

/** One tone per severity the contract lists (a new severity fails the type check here). */
const SEVERITY_TONES: Record<string, BadgeTone> = {
  info: 'gray',
  warning: 'yellow',
  low: 'blue',
  medium: 'yellow',
  high: 'orange',
  critical: 'red',
  blocker: 'critical',
} satisfies Record<IncidentSeverity, BadgeTone>;

export function SeverityBadge({ severity }: { severity: string }) {
  return <Badge tone={SEVERITY_TONES[severity] ?? 'gray'}>{severity}</Badge>;
}

export function StatusBadge({ status }: { status: string }) {
  const done = status === 'resolved' || status === 'closed';
  return <Badge tone={done ? 'green' : 'gray'}>{status}</Badge>;
}
