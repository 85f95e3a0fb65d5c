import { useParams, Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { Card } from '../../../components/card/card';
import { Age } from '../../../components/date/age';
import { EmptyState, NoDetailsFound } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { usePlaybookRun, useRunDecision } from '../api/playbooks';
import { ActionOutput } from './action-output';
import { durationText, RunStatusBadge } from './run-status-badge';
import { startedByText } from '../lib/started-by';

/** `/playbooks/runs/{id}`: the run and its actions as a timeline, live while it runs. */
export function PlaybookRunPage() {
  const { id = '' } = useParams();
  const detail = usePlaybookRun(id);
  const approve = useRunDecision(id, 'approve');
  const cancel = useRunDecision(id, 'cancel');
  if (detail.isPending) return <PageSkeleton />;
  if (detail.isError) return <NoDetailsFound />;
  const { run, actions, artifacts, approvals, can } = detail.data;
  return (
    <div className="flex flex-col gap-4 p-4">
      <Card>
        <div className="flex flex-wrap items-center gap-3 p-4">
          {run.playbook.icon && <ResourceIcon icon={run.playbook.icon} className="size-6" />}
          <h2 className="text-lg font-semibold">{run.playbook.title || run.playbook.name}</h2>
          <RunStatusBadge status={run.status} />
          {run.resource_name && <span className="text-sm text-gray-600">on {run.resource_name}</span>}
          <span className="text-sm text-gray-600">
            started <Age value={run.start_time ?? run.created_at} />
          </span>
          <span className="text-sm text-gray-600">{durationText(run.start_time, run.end_time)}</span>
          {run.started_by && <span className="text-sm text-gray-600">{startedByText(run.started_by)}</span>}
          <span className="flex-1" />
          <Link
            to={`/playbooks/runs?playbook=${run.playbook_id}`}
            className="text-sm text-blue-700 hover:underline"
          >
            All runs
          </Link>
          {can.approve && (
            <Button
              variant="primary"
              disabled={approve.isPending}
              onClick={() =>
                approve.mutate(undefined, {
                  onSuccess: () => showSuccessToast('Run approved'),
                  onError: (error) => showErrorToast(error),
                })
              }
            >
              Approve
            </Button>
          )}
          {can.cancel && (
            <Button
              variant="danger"
              disabled={cancel.isPending}
              onClick={() =>
                cancel.mutate(undefined, {
                  onSuccess: () => showSuccessToast('Run cancelled'),
                  onError: (error) => showErrorToast(error),
                })
              }
            >
              Cancel
            </Button>
          )}
        </div>
        {run.error && (
          <p role="alert" className="px-4 pb-3 text-sm text-red-700">
            {run.error}
          </p>
        )}
        {run.parameters && Object.keys(run.parameters).length > 0 && (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 px-4 pb-3 text-sm">
            {Object.entries(run.parameters).map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-gray-600">{name}</dt>
                <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        )}
        {approvals.length > 0 && (
          <p className="px-4 pb-3 text-sm text-gray-700">
            Approved by {approvals.map((approval) => approval.person_name ?? approval.team_name).join(', ')}
          </p>
        )}
      </Card>
      {run.status === 'pending_approval' && <p className="text-sm text-gray-700">Waiting for approval.</p>}
      {actions.length === 0 ? (
        run.status !== 'pending_approval' && <EmptyState message="No actions have run yet" />
      ) : (
        <ol aria-label="Actions" className="flex flex-col gap-3 border-l-2 border-gray-200 pl-4">
          {actions.map((action) => (
            <li key={action.id} aria-label={action.name} className="flex flex-col gap-2">
              <div className="flex flex-wrap items-center gap-3">
                <span className="font-medium">{action.name}</span>
                <RunStatusBadge status={action.status} />
                <span className="text-sm text-gray-600">
                  {durationText(action.start_time, action.end_time)}
                </span>
                {action.retry_count > 0 && (
                  <span className="text-sm text-gray-600">retries: {action.retry_count}</span>
                )}
                {artifacts
                  .filter((artifact) => artifact.playbook_run_action_id === action.id && artifact.size > 0)
                  .map((artifact) => (
                    <a
                      key={artifact.id}
                      href={`/api/artifacts/download/${artifact.id}`}
                      className="text-sm text-blue-700 hover:underline"
                    >
                      {artifact.filename} ({artifact.size} B)
                    </a>
                  ))}
              </div>
              {action.error && <p className="text-sm text-red-700">{action.error}</p>}
              <ActionOutput action={action} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
