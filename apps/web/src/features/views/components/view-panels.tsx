import type { ViewPanel } from '@opsdeck/contracts';
import { Cell, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card } from '../../../components/card/card';
import { ProgressBar } from '../../../components/progress-bar/progress-bar';

const COLORS = ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#65a30d'];

function numberOf(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : 0;
}

/** The first numeric column of a row (`count`, `value`, ...) and the first other one (the label). */
function labelAndValue(row: Record<string, unknown>): { label: string; value: number } {
  const entries = Object.entries(row);
  const valueEntry =
    entries.find(([key]) => key === 'count' || key === 'value') ??
    entries.find(([, value]) => typeof value === 'number');
  const labelEntry = entries.find((entry) => entry !== valueEntry);
  return { label: labelEntry ? String(labelEntry[1] ?? 'none') : '', value: numberOf(valueEntry?.[1]) };
}

function PanelBody({ panel }: { panel: ViewPanel }) {
  if (panel.error) return <p className="text-sm text-red-700">{panel.error}</p>;
  if (panel.rows.length === 0) return <p className="text-sm text-gray-500">No data available</p>;
  switch (panel.type) {
    case 'number': {
      const { value } = labelAndValue(panel.rows[0]);
      return (
        <p className="text-3xl font-semibold text-gray-900 tabular-nums" data-testid="panel-number">
          {value.toLocaleString('en')}
          {panel.unit ? <span className="ml-1 text-base text-gray-500">{panel.unit}</span> : null}
        </p>
      );
    }
    case 'gauge': {
      const { value } = labelAndValue(panel.rows[0]);
      const min = panel.gauge?.min ?? 0;
      const max = panel.gauge?.max ?? 100;
      return (
        <div className="flex flex-col gap-1">
          <span className="text-xl font-semibold tabular-nums">
            {value}
            {panel.unit ? ` ${panel.unit}` : ''}
          </span>
          <ProgressBar value={max > min ? ((value - min) / (max - min)) * 100 : 0} label={panel.name} />
        </div>
      );
    }
    case 'piechart': {
      const data = panel.rows.map(labelAndValue);
      return (
        <div className="flex items-center gap-3">
          <div className="h-28 w-28 shrink-0">
            <ResponsiveContainer width="100%" height="100%">
              <PieChart>
                <Pie
                  data={data}
                  dataKey="value"
                  nameKey="label"
                  innerRadius={24}
                  outerRadius={50}
                  isAnimationActive={false}
                >
                  {data.map((entry, index) => (
                    <Cell key={entry.label} fill={COLORS[index % COLORS.length]} />
                  ))}
                </Pie>
                <Tooltip />
              </PieChart>
            </ResponsiveContainer>
          </div>
          <ul className="flex flex-col gap-0.5 text-xs" aria-label={`${panel.name} legend`}>
            {data.map((entry, index) => (
              <li key={entry.label} className="flex items-center gap-1.5">
                <span
                  className="inline-block size-2 rounded-full"
                  style={{ background: COLORS[index % COLORS.length] }}
                />
                <span>{entry.label}</span>
                <span className="tabular-nums text-gray-600">{entry.value}</span>
              </li>
            ))}
          </ul>
        </div>
      );
    }
    case 'timeseries': {
      const keys = Object.keys(panel.rows[0]);
      const timeKey = keys.find((key) => /time|date|at$/i.test(key)) ?? keys[0];
      const series = keys.filter((key) => key !== timeKey && typeof panel.rows[0][key] === 'number');
      return (
        <div className="h-32">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={panel.rows}>
              <XAxis dataKey={timeKey} hide />
              <YAxis width={32} tick={{ fontSize: 10 }} />
              <Tooltip />
              {series.map((key, index) => (
                <Line
                  key={key}
                  dataKey={key}
                  stroke={COLORS[index % COLORS.length]}
                  dot={false}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      );
    }
    case 'text':
      return (
        <div className="text-sm whitespace-pre-wrap text-gray-800">
          {panel.rows.map((row) => Object.values(row).map(String).join(' ')).join('\n')}
        </div>
      );
    case 'table': {
      const keys = Object.keys(panel.rows[0]);
      return (
        <table className="w-full text-xs" aria-label={panel.name}>
          <thead>
            <tr>
              {keys.map((key) => (
                <th key={key} className="text-left font-medium text-gray-500">
                  {key}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {panel.rows.map((row, index) => (
              <tr key={index}>
                {keys.map((key) => (
                  <td key={key} className="tabular-nums">
                    {String(row[key] ?? '')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
  }
}

/** The panels of a view above its table: each a card with the panel's name. */
export function ViewPanels({ panels }: { panels: ViewPanel[] }) {
  if (panels.length === 0) return null;
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Panels" role="list">
      {panels.map((panel) => (
        <Card
          key={panel.name}
          role="listitem"
          aria-label={panel.name}
          title={panel.name}
          className="min-h-32"
        >
          <PanelBody panel={panel} />
        </Card>
      ))}
    </div>
  );
}
