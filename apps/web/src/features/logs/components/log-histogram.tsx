import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useDateFormatter } from '../../../lib/preferences';
import type { HistogramBucket } from '../lib/histogram';

/** Counts of lines over the range, errors stacked in red. */
export function LogHistogram({ buckets }: { buckets: HistogramBucket[] }) {
  const { formatDate } = useDateFormatter();
  return (
    <figure
      aria-label="Log lines over time"
      className="h-28 w-full rounded border border-gray-200 bg-white p-2"
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={buckets.map((bucket) => ({ ...bucket, other: bucket.count - bucket.errors }))}>
          <XAxis
            dataKey="start"
            tickFormatter={(value: number) => formatDate(new Date(value), { format: 'medium' })}
            fontSize={10}
            minTickGap={40}
          />
          <YAxis allowDecimals={false} fontSize={10} width={30} />
          <Tooltip
            labelFormatter={(value) => formatDate(new Date(Number(value)), { format: 'timestamp' })}
            formatter={(value, name) => [value, name === 'errors' ? 'Errors' : 'Other lines']}
          />
          <Bar dataKey="errors" stackId="lines" fill="#dc2626" isAnimationActive={false} />
          <Bar dataKey="other" stackId="lines" fill="#3b82f6" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
