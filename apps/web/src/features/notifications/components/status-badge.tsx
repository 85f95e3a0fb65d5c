import { Badge, type BadgeTone } from '../../../components/badge/badge';

const TONES: Record<string, BadgeTone> = {
  sent: 'green',
  failed: 'red',
  retrying: 'orange',
  pending: 'blue',
  silenced: 'gray',
  inhibited: 'gray',
  'repeat-interval': 'gray',
  grouped: 'gray',
  waited: 'blue',
  skipped: 'gray',
};

export function SendStatusBadge({ status }: { status: string | null }) {
  return <Badge tone={TONES[status ?? ''] ?? 'gray'}>{status ?? 'unknown'}</Badge>;
}
