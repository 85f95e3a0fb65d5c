import { useMemo } from 'react';
import {
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { formatLatency } from '../../../lib/format';
import { useDateFormatter } from '../../../lib/preferences';
import type { CheckStatus } from '../api/check-detail';

interface Point {
  t: number;
  latency: number | null;
  passed: number | null;
  failed: number | null;
}

/** Status and latency of a check's runs over time, oldest first, for the 'Health Overview' chart. */
export function overviewPoints(statuses: readonly CheckStatus[]): Point[] {
  return statuses
    .map((status) => {
      const latency = status.duration ?? 0;
      return {
        t: Date.parse(status.time),
        latency: status.duration,
        passed: status.status ? latency : null,
        failed: status.status ? null : latency,
      };
    })
    .filter((point) => Number.isFinite(point.t))
    .sort((a, b) => a.t - b.t);
}

/**
 * The check panel's 'Health Overview' (core §2): each run of the selected range as a dot, green
 * when it passed and red when it failed, at its latency, with the latency line through them.
 */
export function HealthOverviewChart({
  statuses,
  height = 180,
}: {
  statuses: readonly CheckStatus[];
  height?: number;
}) {
  const points = useMemo(() => overviewPoints(statuses), [statuses]);
  const dates = useDateFormatter();
  const passed = points.filter((point) => point.passed !== null).length;
  const failed = points.length - passed;
  if (points.length === 0) return <EmptyState />;
  return (
    <figure className="flex flex-col gap-1" aria-label="Health Overview">
      <figcaption className="flex items-center gap-3 text-xs text-gray-600">
        <span className="font-medium text-gray-800">Health Overview</span>
        <span>{passed} passed</span>
        <span>{failed} failed</span>
      </figcaption>
      <div style={{ height }} data-testid="health-overview-chart">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="#e5e7eb" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={['dataMin', 'dataMax']}
              tickFormatter={(value: number) => dates.formatDate(value, { format: 'short' })}
              tick={{ fontSize: 11 }}
              minTickGap={40}
            />
            <YAxis
              tickFormatter={(value: number) => formatLatency(value)}
              tick={{ fontSize: 11 }}
              width={56}
            />
            <Tooltip
              labelFormatter={(value) => dates.formatDate(Number(value))}
              formatter={(value, name) => [formatLatency(Number(value)), String(name)]}
            />
            <Line dataKey="latency" name="latency" stroke="#93c5fd" dot={false} isAnimationActive={false} />
            <Scatter dataKey="passed" name="passed" fill="#16a34a" isAnimationActive={false} />
            <Scatter dataKey="failed" name="failed" fill="#dc2626" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
