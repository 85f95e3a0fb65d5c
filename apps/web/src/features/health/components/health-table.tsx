import { ChevronDown, ChevronRight, ChevronUp } from 'lucide-react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { StatusBadge } from '../../../components/status-badge/status-badge';
import { UptimeBar } from '../../../components/uptime-bar/uptime-bar';
import { groupStatus } from '../../../lib/format/health';
import {
  formatLatency,
  formatUptime,
  groupUptime,
  pickLatency,
  showsLastRunAge,
  showsTransitionTime,
} from '../../../lib/format';
import { useDateFormatter, type DateFormatter } from '../../../lib/preferences/use-preferences';
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

/** Formats a date as an age with its tooltip; one formatter for the whole table (settings §9). */
type FormatAge = DateFormatter['formatAge'];

/** An age such as '3h' with the full timestamp as tooltip, formatted by the table's formatter. */
function RowAge({
  value,
  formatAge,
  className,
}: {
  value: string;
  formatAge: FormatAge;
  className?: string;
}) {
  const age = formatAge(value);
  if (!age.text) return null;
  return (
    <time dateTime={age.iso} title={age.title} className={className}>
      {age.text}
    </time>
  );
}

function CheckCells({
  check,
  nested,
  formatAge,
}: {
  check: CheckSummary;
  nested: boolean;
  formatAge: FormatAge;
}) {
  const latency = pickLatency(check.latency);
  return (
    <>
      <td className={nested ? 'truncate py-2 pr-3 pl-8' : 'truncate py-2 pr-3'}>
        <span className="text-gray-900">{check.name}</span>
      </td>
      <td className="py-2 pr-3">
        <StatusBadge status={check.status}>
          {showsLastRunAge(check.last_runtime) && (
            <RowAge value={check.last_runtime!} formatAge={formatAge} className="font-normal text-gray-500" />
          )}
        </StatusBadge>
      </td>
      <td className="py-2 pr-3">
        <span className="flex items-center gap-2">
          <UptimeBar
            passed={check.uptime?.passed ?? 0}
            failed={check.uptime?.failed ?? 0}
            label={`${check.name} uptime`}
          />
          <span className="tabular-nums">{formatUptime(check.uptime, 1)}</span>
        </span>
      </td>
      <td className="py-2 pr-3 tabular-nums">{latency === undefined ? '' : formatLatency(latency)}</td>
      <td className="py-2 pr-3">
        {showsTransitionTime(check.last_transition_time) && (
          <RowAge value={check.last_transition_time!} formatAge={formatAge} />
        )}
      </td>
    </>
  );
}

/**
 * A check's row. Memoised with props that stay the same while scrolling, so a scroll step draws
 * only the rows entering the window; the user's date preferences come in once through formatAge
 * instead of a store subscription per row.
 */
const CheckRow = memo(function CheckRow({
  check,
  nested,
  onOpen,
  formatAge,
}: {
  check: CheckSummary;
  nested: boolean;
  onOpen(check: CheckSummary): void;
  formatAge: FormatAge;
}) {
  return (
    <tr
      data-testid="health-check-row"
      style={{ height: ROW_PX }}
      className="cursor-pointer border-b border-gray-100 hover:bg-gray-50"
      onClick={() => onOpen(check)}
    >
      <td />
      <CheckCells check={check} nested={nested} formatAge={formatAge} />
    </tr>
  );
});

const GroupRow = memo(function GroupRow({
  row,
  open,
  onToggle,
}: {
  row: Extract<HealthRow, { kind: 'group' }>;
  open: boolean;
  onToggle(id: string): void;
}) {
  const uptime = groupUptime(row.checks.map((check) => check.uptime));
  return (
    <tr
      data-testid="health-group-row"
      style={{ height: ROW_PX }}
      className="cursor-pointer border-b border-gray-100 bg-gray-50/50 hover:bg-gray-50"
      onClick={() => onToggle(row.id)}
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
      <td className="truncate py-2 pr-3 font-medium text-gray-900">
        {row.name} <span className="text-xs text-gray-500">({row.checks.length})</span>
      </td>
      <td className="py-2 pr-3">
        <StatusBadge status={groupStatus(row.checks.map(isHealthy))} />
      </td>
      <td className="py-2 pr-3">
        <span className="flex items-center gap-2">
          <UptimeBar passed={uptime.passed} failed={uptime.failed} label={`${row.name} uptime`} />
          <span className="tabular-nums">{`${uptime.passed}/${row.checks.length}`}</span>
        </span>
      </td>
      <td />
      <td />
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

const estimateSize = () => ROW_PX;

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
  // A new getItemKey makes the virtualizer recompute the offsets of every line: keep it per list.
  const getItemKey = useCallback((index: number) => lines[index].key, [lines]);
  const virtualizer = useWindowVirtualizer({
    count: lines.length,
    estimateSize,
    overscan: 20,
    scrollMargin,
    enabled: virtual,
    getItemKey,
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

/**
 * The health table (core §2): groups expand and collapse; checks open their detail panel.
 * Fixed column widths keep the layout of a scroll step to the rows that change.
 */
export const HealthTable = memo(function HealthTable({
  rows,
  sortBy,
  sortDesc,
  onSort,
  onOpen,
}: HealthTableProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const lines = useMemo(() => linesOf(rows, collapsed), [rows, collapsed]);
  const [visible, bodyRef] = useVisibleLines(lines);
  const { formatAge } = useDateFormatter();
  // The page passes new handlers on every render; rows get ones that never change.
  const handlers = useRef({ onOpen, onSort });
  useEffect(() => {
    handlers.current = { onOpen, onSort };
  });
  const openCheck = useCallback((check: CheckSummary) => handlers.current.onOpen(check), []);
  const toggle = useCallback(
    (id: string) =>
      setCollapsed((previous) => {
        const next = new Set(previous);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  if (rows.length === 0) return <EmptyState />;
  return (
    // Below its minimum width (an 800 px window with the sidebar open) the table scrolls sideways
    // instead of squeezing the Checks column to nothing.
    <div className="overflow-x-auto">
      <table
        className="w-full min-w-[600px] table-fixed text-left text-sm"
        aria-label="Health checks"
        aria-rowcount={lines.length + 1}
      >
        <colgroup>
          <col className="w-8" />
          <col />
          <col className="w-32" />
          <col className="w-32" />
          <col className="w-20" />
          <col className="w-24" />
        </colgroup>
        <thead className="border-b border-gray-200 text-xs text-gray-600 uppercase">
          <tr>
            <th aria-label="Expand" />
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
                    onClick={() => handlers.current.onSort(column.id)}
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
          {visible.items.map((line) =>
            line.kind === 'check' ? (
              <CheckRow
                key={line.key}
                check={line.check}
                nested={line.nested}
                onOpen={openCheck}
                formatAge={formatAge}
              />
            ) : (
              <GroupRow key={line.key} row={line.row} open={line.open} onToggle={toggle} />
            ),
          )}
          {visible.bottom > 0 && <tr aria-hidden style={{ height: visible.bottom }} />}
        </tbody>
      </table>
    </div>
  );
});
