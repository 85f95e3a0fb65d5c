import type { PlaybookRunListItem } from '@opsdeck/contracts';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../../components/button/button';
import { Card } from '../../../components/card/card';
import { Age } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { useCan } from '../../../lib/permissions';
import { usePlaybookRows, usePlaybookRuns, type PlaybookRow } from '../api/playbooks';
import { RunPlaybookDialog } from './run-playbook-dialog';
import { RunStatusBadge } from './run-status-badge';

export const PLAYBOOKS_PATH = '/playbooks';
const UNCATEGORIZED = 'Uncategorized';

function runsOnNothing(spec: Record<string, unknown>): boolean {
  return (['configs', 'components', 'checks'] as const).every(
    (key) => !Array.isArray(spec[key]) || (spec[key] as unknown[]).length === 0,
  );
}

/** `/playbooks`: every playbook by category with its icon, title, description and last runs. */
export function PlaybooksPage() {
  const playbooks = usePlaybookRows();
  const runs = usePlaybookRuns({ pageIndex: 0, pageSize: 200 });
  const canWrite = useCan('playbooks', 'write');
  const canRun = useCan('playbook_runs', 'write');
  const [running, setRunning] = useState<PlaybookRow>();
  if (playbooks.isPending) return <PageSkeleton />;
  if (playbooks.isError) return <EmptyState message={playbooks.error.message} />;
  const lastRuns = new Map<string, PlaybookRunListItem[]>();
  for (const run of runs.data?.data ?? []) {
    const list = lastRuns.get(run.playbook_id) ?? [];
    if (list.length < 3) list.push(run);
    lastRuns.set(run.playbook_id, list);
  }
  const categories = new Map<string, PlaybookRow[]>();
  for (const playbook of playbooks.data) {
    const category =
      typeof playbook.spec.category === 'string' && playbook.spec.category
        ? playbook.spec.category
        : UNCATEGORIZED;
    categories.set(category, [...(categories.get(category) ?? []), playbook]);
  }
  const sorted = [...categories.entries()].sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="flex flex-col gap-4 p-4">
      <div className="flex items-center gap-3">
        <Link to="/playbooks/runs" className="text-sm text-blue-700 hover:underline">
          All runs
        </Link>
        <span className="flex-1" />
        {canWrite && (
          <Link to="/playbooks/new" className={buttonClasses({ variant: 'primary' })}>
            <Plus className="size-4" aria-hidden />
            New playbook
          </Link>
        )}
      </div>
      {playbooks.data.length === 0 && <EmptyState message="No playbooks yet" />}
      {sorted.map(([category, list]) => (
        <section key={category} aria-label={category} className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold uppercase text-gray-600">{category}</h2>
          <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
            {list.map((playbook) => (
              <Card key={playbook.id}>
                <div className="flex flex-col gap-2 p-4">
                  <div className="flex items-center gap-2">
                    {typeof playbook.spec.icon === 'string' && (
                      <ResourceIcon icon={playbook.spec.icon} className="size-5" />
                    )}
                    <h3 className="font-medium">{playbook.title || playbook.name}</h3>
                  </div>
                  {playbook.description && <p className="text-sm text-gray-600">{playbook.description}</p>}
                  <ul
                    aria-label={`Last runs of ${playbook.title || playbook.name}`}
                    className="flex flex-col gap-1 text-sm"
                  >
                    {(lastRuns.get(playbook.id) ?? []).map((run) => (
                      <li key={run.id} className="flex items-center gap-2">
                        <RunStatusBadge status={run.status} />
                        <Link to={`/playbooks/runs/${run.id}`} className="text-blue-700 hover:underline">
                          <Age value={run.created_at} />
                        </Link>
                        {run.resource_name && <span className="text-gray-600">{run.resource_name}</span>}
                      </li>
                    ))}
                  </ul>
                  <div className="flex gap-2">
                    {canRun && (
                      <Button variant="primary" size="sm" onClick={() => setRunning(playbook)}>
                        Run
                      </Button>
                    )}
                    <Link
                      to={`/playbooks/runs?playbook=${playbook.id}`}
                      className={buttonClasses({ size: 'sm' })}
                    >
                      Runs
                    </Link>
                    <Link to={`/playbooks/${playbook.id}`} className={buttonClasses({ size: 'sm' })}>
                      {canWrite ? 'Edit' : 'View'}
                    </Link>
                  </div>
                </div>
              </Card>
            ))}
          </div>
        </section>
      ))}
      {running && (
        <RunPlaybookDialog
          playbook={running}
          needsResource={!runsOnNothing(running.spec)}
          onClose={() => setRunning(undefined)}
        />
      )}
    </div>
  );
}
