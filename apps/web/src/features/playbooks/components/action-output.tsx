import {
  playbookExecCheckoutResultSchema,
  playbookGitopsActionResultSchema,
  playbookLogsActionResultSchema,
  type PlaybookRunDetail,
} from '@opsdeck/contracts';

type Action = PlaybookRunDetail['actions'][number];

const preClass = 'max-h-64 overflow-auto rounded bg-gray-900 p-2 text-xs text-gray-100';

function LogsOutput({ action, result }: { action: Action; result: unknown }) {
  const parsed = playbookLogsActionResultSchema.safeParse(result);
  if (!parsed.success) return null;
  const { logs, total, count } = parsed.data;
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm text-gray-700">
        {count === total ? `${count} log lines` : `${count} of ${total} log lines`}
      </p>
      {logs.length > 0 && (
        <pre aria-label={`${action.name} output`} className={preClass}>
          {logs
            .map((line) => `${line.timestamp} ${(line.level ?? '-').toUpperCase()} ${line.message}`)
            .join('\n')}
        </pre>
      )}
    </div>
  );
}

function GitopsOutput({ action, result }: { action: Action; result: unknown }) {
  const parsed = playbookGitopsActionResultSchema.safeParse(result);
  if (!parsed.success) return null;
  const data = parsed.data;
  const pullRequest = data.pullRequest;
  return (
    <dl
      aria-label={`${action.name} output`}
      className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm"
    >
      <dt className="text-gray-600">Repository</dt>
      <dd className="break-all">{data.url}</dd>
      <dt className="text-gray-600">Branch</dt>
      <dd>{data.branch === data.base ? data.branch : `${data.branch} (from ${data.base})`}</dd>
      <dt className="text-gray-600">Commit</dt>
      <dd className="font-mono">
        {data.commit
          ? `${data.commit.slice(0, 12)}${data.pushed ? ' pushed' : ''}`
          : (data.skipped ?? 'Nothing to commit')}
      </dd>
      {data.changed && data.changed.length > 0 && (
        <>
          <dt className="text-gray-600">Files</dt>
          <dd>{data.changed.join(', ')}</dd>
        </>
      )}
      {pullRequest && (
        <>
          <dt className="text-gray-600">Pull request</dt>
          <dd>
            {pullRequest.created ? (
              <a
                href={pullRequest.url}
                className="text-blue-700 hover:underline"
                rel="noreferrer"
                target="_blank"
              >
                #{pullRequest.number}
              </a>
            ) : (
              pullRequest.reason
            )}
          </dd>
        </>
      )}
    </dl>
  );
}

/** An action's result: exec output (with its checkout), log lines, a gitops push, or the result as JSON. */
export function ActionOutput({ action }: { action: Action }) {
  const result = (action.result ?? {}) as Record<string, unknown>;
  if (playbookLogsActionResultSchema.safeParse(result).success)
    return <LogsOutput action={action} result={result} />;
  if (playbookGitopsActionResultSchema.safeParse(result).success)
    return <GitopsOutput action={action} result={result} />;
  const checkout = playbookExecCheckoutResultSchema.safeParse(result.checkout);
  const text =
    typeof result.stdout === 'string'
      ? [result.stdout, typeof result.stderr === 'string' ? result.stderr : ''].filter(Boolean).join('\n')
      : Object.keys(result).length > 0
        ? JSON.stringify(result, null, 2)
        : '';
  return (
    <>
      {checkout.success && (
        <p className="text-sm text-gray-700">
          Checked out {checkout.data.url}
          {checkout.data.branch ? ` (${checkout.data.branch})` : ''} at {checkout.data.commit.slice(0, 12)}
        </p>
      )}
      {text && (
        <pre aria-label={`${action.name} output`} className={preClass}>
          {text}
        </pre>
      )}
    </>
  );
}
