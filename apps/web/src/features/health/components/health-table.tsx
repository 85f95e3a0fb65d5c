import { ChevronDown, ChevronRight, ChevronUp } from 'lucide-react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Age } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { GroupStatusDot, StatusDot } from '../../../components/status-dot/status-dot';
import {
  formatLatency,
  formatUptime,
  groupUptime,
  pickLatency,
  showsLastRunAge,
  showsTransitionTime,
} from '../../../lib/format';
import { isHealthy, type CheckSummary, type HealthRow, type SortColumn } from '../lib/checks';

const COLUMNS: { id: SortColumn; header: string }[] = [
  { id: 'name', header: 'Checks' },
  { id: 'health', header: 'Health' },
  { id: 'uptime', header: 'Uptime' },
  { id: 'latency', header: 'Latency' },
  { id: 'transition', header: 'Transition' },
];

export interface HealthTableProps {
  rows: HealthRow[];
  sortBy?: SortColumn;
  sortDesc: boolean;
  onSort(column: SortColumn): void;
  onOpen(check: CheckSummary): void;
}

function CheckCells({ check, nested }: { check: CheckSummary; nested: boolean }) {
  const latency = pickLatency(check.latency);
  return (
    <>
      <td className={nested ? 'py-2 pr-3 pl-8' : 'py-2 pr-3'}>
        <span className="text-gray-900">{check.name}</span>
      </td>
      <td className="py-2 pr-3">
        <span className="flex items-center gap-2">
          <StatusDot status={check.status ?? 'unknown'} label={check.status ?? 'unknown'} />
          {showsLastRunAge(check.last_runtime) && (
            <Age value={check.last_runtime} className="text-xs text-gray-500" />
          )}
        </span>
      </td>
      <td className="py-2 pr-3">{formatUptime(check.uptime, 1)}</td>
      <td className="py-2 pr-3">{latency === undefined ? '' : formatLatency(latency)}</td>
      <td className="py-2 pr-3">
        {showsTransitionTime(check.last_transition_time) && <Age value={check.last_transition_time} />}
      </td>
    </>
  );
}

/** A check's row; memoised so scrolling draws only the rows that enter the window. */
const CheckRow = memo(function CheckRow({
  check,
  nested,
  onOpen,
}: {
  check: CheckSummary;
  nested: boolean;
  onOpen(check: CheckSummary): void;
}) {
  return (
    <tr
      data-testid="health-check-row"
      style={{ height: ROW_PX }}
      className="cursor-pointer border-b border-gray-100 hover:bg-gray-50"
      onClick={() => onOpen(check)}
    >
      <td />
      <CheckCells check={check} nested={nested} />
    </tr>
  );
});

/** Past this many visible rows the table renders only those near the viewport (issue: 5,000 checks). */
export const VIRTUALIZE_FROM_ROWS = 200;
/** Rows are drawn at one height so the spacers above and below the window stay exact. */
const ROW_PX = 41;

type Line =
  | { kind: 'group'; key: string; row: Extract<HealthRow, { kind: 'group' }>; open: boolean }
  | { kind: 'check'; key: string; check: CheckSummary; nested: boolean };

/** The rows as drawn: groups, then their checks when expanded. */
function linesOf(rows: readonly HealthRow[], collapsed: ReadonlySet<string>): Line[] {
  const lines: Line[] = [];
  for (const row of rows) {
    if (row.kind === 'check') {
      lines.push({ kind: 'check', key: row.id, check: row.check, nested: false });
      continue;
    }
    const open = !collapsed.has(row.id);
    lines.push({ kind: 'group', key: row.id, row, open });
    if (open)
      for (const check of row.checks)
        lines.push({ kind: 'check', key: `${row.id}/${check.id}`, check, nested: true });
  }
  return lines;
}

/**
 * Which lines to draw: all of them for short lists, else a window around the viewport (the page
 * scrolls, so the window follows the page's scroll) with spacer rows keeping the scroll height.
 */
function useVisibleLines(lines: Line[]) {
  const virtual = lines.length > VIRTUALIZE_FROM_ROWS;
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the rows start on the page, measured when the table body mounts.
  const bodyRef = useCallback((node: HTMLTableSectionElement | null) => {
    if (node) setScrollMargin(node.getBoundingClientRect().top + window.scrollY);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: lines.length,
    estimateSize: () => ROW_PX,
    overscan: 20,
    scrollMargin,
    enabled: virtual,
    getItemKey: (index) => lines[index].key,
  });
  if (!virtual) return [{ items: lines, top: 0, bottom: 0 }, bodyRef] as const;
  const windowed = virtualizer.getVirtualItems();
  const top = windowed.length ? windowed[0].start - scrollMargin : 0;
  // Item offsets include the scroll margin; the total size does not.
  const bottom = windowed.length
    ? virtualizer.getTotalSize() - (windowed[windowed.length - 1].end - scrollMargin)
    : 0;
  return [
    {
      items: windowed.map((item) => lines[item.index]),
      top,
      bottom,
    },
    bodyRef,
  ] as const;
}

/** The health table (core §2): groups expand and collapse; checks open their detail panel. */
export function HealthTable({ rows, sortBy, sortDesc, onSort, onOpen }: HealthTableProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const lines = useMemo(() => linesOf(rows, collapsed), [rows, collapsed]);
  const [visible, bodyRef] = useVisibleLines(lines);
  // The page passes a new onOpen on every render; rows get one that never changes.
  const onOpenRef = useRef(onOpen);
  useEffect(() => {
    onOpenRef.current = onOpen;
  });
  const openCheck = useCallback((check: CheckSummary) => onOpenRef.current(check), []);
  if (rows.length === 0) return <EmptyState />;
  const toggle = (id: string) =>
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <table className="w-full text-left text-sm" aria-label="Health checks" aria-rowcount={lines.length + 1}>
      <thead className="border-b border-gray-200 text-xs text-gray-600 uppercase">
        <tr>
          <th className="w-8" aria-label="Expand" />
          {COLUMNS.map((column) => {
            const active = sortBy === column.id;
            return (
              <th
                key={column.id}
                className="py-2 pr-3"
                aria-sort={active ? (sortDesc ? 'descending' : 'ascending') : 'none'}
              >
                <button
                  type="button"
                  onClick={() => onSort(column.id)}
                  className="flex items-center gap-1 uppercase"
                >
                  {column.header}
                  {active &&
                    (sortDesc ? <ChevronDown className="size-3" /> : <ChevronUp className="size-3" />)}
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody ref={bodyRef}>
        {visible.top > 0 && <tr aria-hidden style={{ height: visible.top }} />}
        {visible.items.map((line) => {
          if (line.kind === 'check') {
            return <CheckRow key={line.key} check={line.check} nested={line.nested} onOpen={openCheck} />;
          }
          const { row, open } = line;
          const uptime = groupUptime(row.checks.map((check) => check.uptime));
          return (
            <tr
              key={line.key}
              data-testid="health-group-row"
              style={{ height: ROW_PX }}
              className="cursor-pointer border-b border-gray-100 bg-gray-50/50 hover:bg-gray-50"
              onClick={() => toggle(row.id)}
            >
              <td className="py-2 pl-2">
                <button
                  type="button"
                  aria-label={open ? `Collapse ${row.name}` : `Expand ${row.name}`}
                  aria-expanded={open}
                >
                  {open ? <ChevronDown className="size-4" /> : <ChevronRight className="size-4" />}
                </button>
              </td>
              <td className="py-2 pr-3 font-medium text-gray-900">
                {row.name} <span className="text-xs text-gray-500">({row.checks.length})</span>
              </td>
              <td className="py-2 pr-3">
                <GroupStatusDot label={`${row.name} status`}>{row.checks.map(isHealthy)}</GroupStatusDot>
              </td>
              <td className="py-2 pr-3">{`${uptime.passed}/${row.checks.length}`}</td>
              <td />
              <td />
            </tr>
          );
        })}
        {visible.bottom > 0 && <tr aria-hidden style={{ height: visible.bottom }} />}
      </tbody>
    </table>
  );
}
