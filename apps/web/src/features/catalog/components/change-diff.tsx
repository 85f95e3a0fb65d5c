import { FormattedDate } from '../../../components/date/age';
import { Modal } from '../../../components/modal/modal';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { useChangeDetail } from '../api/config-changes';
import { EvidenceAction } from './evidence-action';

/** A unified diff with added lines green and removed lines red. */
export function DiffView({ diff }: { diff: string }) {
  return (
    <pre aria-label="Diff" className="overflow-x-auto rounded bg-gray-50 p-2 text-xs">
      {diff.split('\n').map((line, index) => (
        <span
          key={index}
          className={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'block bg-green-50 text-green-800'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'block bg-red-50 text-red-800'
                : line.startsWith('@@')
                  ? 'block text-blue-700'
                  : 'block'
          }
        >
          {line}
        </span>
      ))}
    </pre>
  );
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && Object.keys(value).length === 0)
  );
}

/** The diff viewer of one change: its unified diff, JSON patch and details. */
export function ChangeDiffModal({ changeId, onClose }: { changeId: string | undefined; onClose(): void }) {
  const query = useChangeDetail(changeId);
  const change = query.data;
  return (
    <Modal
      open={Boolean(changeId)}
      onClose={onClose}
      size="large"
      title={
        change ? `${change.change_type ?? 'Change'}${change.summary ? `: ${change.summary}` : ''}` : 'Change'
      }
    >
      {query.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : query.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {query.error.message}
        </p>
      ) : !change ? (
        <p className="text-sm text-gray-600">No details found</p>
      ) : (
        <div className="flex flex-col gap-3 text-sm">
          <div className="flex flex-wrap items-center justify-end gap-3">
            <EvidenceAction
              target={{
                kind: 'config_change',
                configChangeId: change.id,
                configId: change.config_id,
                name: [change.change_type ?? 'Change', change.summary].filter(Boolean).join(': '),
              }}
            />
          </div>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
            <dt className="text-gray-500">Created</dt>
            <dd>
              <FormattedDate value={change.created_at} />
            </dd>
            {change.severity && (
              <>
                <dt className="text-gray-500">Severity</dt>
                <dd>{change.severity}</dd>
              </>
            )}
            {change.source && (
              <>
                <dt className="text-gray-500">Source</dt>
                <dd>{change.source}</dd>
              </>
            )}
            {(change.created_by ?? change.external_created_by) && (
              <>
                <dt className="text-gray-500">Created by</dt>
                <dd>{change.created_by ?? change.external_created_by}</dd>
              </>
            )}
          </dl>
          {change.diff ? <DiffView diff={change.diff} /> : null}
          {!isEmpty(change.patches) && (
            <section aria-label="Patches">
              <h3 className="mb-1 text-xs font-semibold text-gray-500 uppercase">Patches</h3>
              <pre className="overflow-x-auto rounded bg-gray-50 p-2 text-xs">
                {JSON.stringify(change.patches, null, 2)}
              </pre>
            </section>
          )}
          {!isEmpty(change.details) && (
            <section aria-label="Details">
              <h3 className="mb-1 text-xs font-semibold text-gray-500 uppercase">Details</h3>
              <pre className="overflow-x-auto rounded bg-gray-50 p-2 text-xs">
                {JSON.stringify(change.details, null, 2)}
              </pre>
            </section>
          )}
          {!change.diff && isEmpty(change.patches) && isEmpty(change.details) && (
            <p className="text-gray-600">No details found</p>
          )}
        </div>
      )}
    </Modal>
  );
}
