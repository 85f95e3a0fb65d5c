import type { ViewColumn } from '@opsdeck/contracts';
import { Badge } from '../../../components/badge/badge';
import { FormattedDate } from '../../../components/date/age';
import { ProgressBar } from '../../../components/progress-bar/progress-bar';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { formatBytes } from '../../../lib/format/bytes';
import { formatDuration } from '../../../lib/format/duration';

function asNumber(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : null;
}

/** Only http(s) links open: a view's row must not smuggle a `javascript:` URL into the page. */
function safeHref(value: string): string | null {
  if (value.startsWith('/')) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** One cell of a view's table, rendered by its column type. */
export function ViewCell({ column, value }: { column: ViewColumn; value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="text-gray-400">-</span>;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  switch (column.type) {
    case 'number': {
      const number = asNumber(value);
      return (
        <span className="tabular-nums">
          {number === null ? text : number.toLocaleString('en')}
          {column.unit ? ` ${column.unit}` : ''}
        </span>
      );
    }
    case 'decimal': {
      const number = asNumber(value);
      return <span className="tabular-nums">{number === null ? text : number.toFixed(2)}</span>;
    }
    case 'boolean':
      return <span>{value === true || value === 'true' ? 'Yes' : 'No'}</span>;
    case 'datetime':
      return <FormattedDate value={text} />;
    case 'duration': {
      const number = asNumber(value);
      return <span className="tabular-nums">{number === null ? text : formatDuration(number)}</span>;
    }
    case 'bytes': {
      const number = asNumber(value);
      return <span className="tabular-nums">{number === null ? text : formatBytes(number)}</span>;
    }
    case 'health':
      return (
        <span className="flex items-center gap-1.5">
          <StatusDot status={text} size="sm" />
          {text}
        </span>
      );
    case 'status':
      return <Badge>{text}</Badge>;
    case 'badge':
      return <Badge tone="blue">{text}</Badge>;
    case 'gauge': {
      const number = asNumber(value);
      if (number === null) return <span>{text}</span>;
      const min = column.gauge?.min ?? 0;
      const max = column.gauge?.max ?? 100;
      const percent = max > min ? ((number - min) / (max - min)) * 100 : 0;
      return (
        <span className="flex min-w-24 items-center gap-2">
          <ProgressBar value={percent} label={`${column.name} ${number}`} />
          <span className="text-xs tabular-nums">{number}</span>
        </span>
      );
    }
    case 'url': {
      const href = safeHref(text);
      return href ? (
        <a
          href={href}
          className="text-blue-700 hover:underline"
          target={href.startsWith('/') ? undefined : '_blank'}
          rel="noreferrer"
        >
          {text}
        </a>
      ) : (
        <span>{text}</span>
      );
    }
    default:
      return <span>{text}</span>;
  }
}
