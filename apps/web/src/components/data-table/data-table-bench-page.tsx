import { HEALTH_STATES } from '@opsdeck/contracts';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Age } from '../date/age';
import { ResourceIcon } from '../resource-icon/resource-icon';
import { StatusDot } from '../status-dot/status-dot';
import { DataTable, type DataTableColumn } from './data-table';

// The page `npm run bench data-table` opens (bench/data-table.bench.ts): the shared DataTable in
// virtual mode with generated rows. Not part of the app's bundle; nothing in the app imports it.

interface BenchRow {
  id: string;
  name: string;
  type: string;
  status: string;
  owner: string;
  created_at: string;
}

const TYPES = ['Kubernetes::Pod', 'Kubernetes::Deployment', 'AWS::EC2::Instance', 'http', 'postgres'];

function benchRows(count: number): BenchRow[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    id: `row-${i}`,
    name: `bench-item-${String(i).padStart(5, '0')}`,
    type: TYPES[i % TYPES.length],
    status: HEALTH_STATES[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0],
    owner: `team-${i % 12}`,
    created_at: new Date(now - i * 97_000).toISOString(),
  }));
}

const COLUMNS: DataTableColumn<BenchRow>[] = [
  {
    id: 'name',
    header: 'Name',
    accessorKey: 'name',
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        <ResourceIcon type={row.original.type} />
        <span className="truncate">{row.original.name}</span>
      </span>
    ),
  },
  { id: 'type', header: 'Type', accessorKey: 'type' },
  {
    id: 'status',
    header: 'Status',
    accessorKey: 'status',
    cell: ({ row }) => (
      <span className="flex items-center gap-2">
        <StatusDot status={row.original.status} />
        {row.original.status}
      </span>
    ),
  },
  { id: 'owner', header: 'Owner', accessorKey: 'owner' },
  {
    id: 'created_at',
    header: 'Created',
    accessorKey: 'created_at',
    cell: ({ row }) => <Age value={row.original.created_at} />,
  },
];

/** Renders `count` rows into `container`; returns when React has been asked to render. */
export function mountDataTableBench(container: HTMLElement, count: number): void {
  const rows = benchRows(count);
  createRoot(container).render(
    <BrowserRouter>
      <div className="p-4">
        <DataTable
          tableId="bench"
          label="Bench rows"
          columns={COLUMNS}
          data={rows}
          getRowId={(row) => row.id}
          virtual
          virtualHeight={800}
          rowHeight={40}
        />
      </div>
    </BrowserRouter>,
  );
}
