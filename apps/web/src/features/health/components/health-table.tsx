import { ChevronDown, ChevronRight, ChevronUp } from 'lucide-react';
import { Fragment, useState } from 'react';
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

/** The health table (core §2): groups expand and collapse; checks open their detail panel. */
export function HealthTable({ rows, sortBy, sortDesc, onSort, onOpen }: HealthTableProps) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  if (rows.length === 0) return <EmptyState />;
  const toggle = (id: string) =>
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <table className="w-full text-left text-sm" aria-label="Health checks">
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
      <tbody>
        {rows.map((row) => {
          if (row.kind === 'check') {
            return (
              <tr
                key={row.id}
                data-testid="health-check-row"
                className="cursor-pointer border-b border-gray-100 hover:bg-gray-50"
                onClick={() => onOpen(row.check)}
              >
                <td />
                <CheckCells check={row.check} nested={false} />
              </tr>
            );
          }
          const open = !collapsed.has(row.id);
          const uptime = groupUptime(row.checks.map((check) => check.uptime));
          return (
            <Fragment key={row.id}>
              <tr
                data-testid="health-group-row"
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
              {open &&
                row.checks.map((check) => (
                  <tr
                    key={check.id}
                    data-testid="health-check-row"
                    className="cursor-pointer border-b border-gray-100 hover:bg-gray-50"
                    onClick={() => onOpen(check)}
                  >
                    <td />
                    <CheckCells check={check} nested />
                  </tr>
                ))}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
