import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { stringify } from 'yaml';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { FormattedDate } from '../../../components/date/age';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { Skeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { usePreferences } from '../../../lib/preferences/use-preferences';
import { useConfigAnalysis, useConfigChanges, useRelatedConfigs } from '../api/config-detail';

/** Spec tab: the scraped document as JSON or YAML, read-only. */
export function SpecTab({ config }: { config: unknown }) {
  const [language, setLanguage] = useState<'json' | 'yaml'>('yaml');
  const text = useMemo(
    () =>
      config === null || config === undefined
        ? ''
        : language === 'json'
          ? JSON.stringify(config, null, 2)
          : stringify(config),
    [config, language],
  );
  if (!text) return <EmptyState />;
  return (
    <div className="flex flex-col gap-2">
      <div role="group" aria-label="Format" className="flex gap-1">
        {(['yaml', 'json'] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={language === option}
            onClick={() => setLanguage(option)}
            className={`rounded border px-2 py-0.5 text-xs ${language === option ? 'border-blue-500 bg-blue-50 text-blue-800' : 'border-gray-300 text-gray-700'}`}
          >
            {option.toUpperCase()}
          </button>
        ))}
      </div>
      <CodeEditor label="Config" value={text} language={language} readOnly height="32rem" />
    </div>
  );
}

/** Changes tab: newest first, each with its unified diff. */
export function ChangesTab({ configId }: { configId: string }) {
  const query = useConfigChanges(configId);
  if (query.isError) throw query.error;
  if (query.isPending) return <Skeleton className="h-24 w-full" />;
  if (query.data.length === 0) return <EmptyState />;
  return (
    <ul aria-label="Changes" className="flex flex-col gap-3">
      {query.data.map((change) => (
        <li key={change.id} className="rounded border border-gray-200 bg-white p-3">
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span className="font-medium text-gray-900">{change.change_type}</span>
            {change.severity && (
              <span className="rounded bg-gray-100 px-1.5 text-xs text-gray-700">{change.severity}</span>
            )}
            {change.source && <span className="text-xs text-gray-500">{change.source}</span>}
            <FormattedDate value={change.created_at} className="text-xs text-gray-500" />
          </div>
          {change.summary && <p className="mt-1 text-sm text-gray-700">{change.summary}</p>}
          {change.diff && (
            <pre aria-label="Diff" className="mt-2 overflow-x-auto rounded bg-gray-50 p-2 text-xs">
              {change.diff.split('\n').map((line, index) => (
                <span
                  key={index}
                  className={
                    line.startsWith('+') && !line.startsWith('+++')
                      ? 'block text-green-700'
                      : line.startsWith('-') && !line.startsWith('---')
                        ? 'block text-red-700'
                        : 'block'
                  }
                >
                  {line}
                </span>
              ))}
            </pre>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Insights tab: the analysis findings of the item. */
export function InsightsTab({ configId }: { configId: string }) {
  const query = useConfigAnalysis(configId);
  if (query.isError) throw query.error;
  if (query.isPending) return <Skeleton className="h-24 w-full" />;
  if (query.data.length === 0) return <EmptyState />;
  return (
    <table aria-label="Insights" className="w-full divide-y divide-gray-200 text-sm">
      <thead className="text-left text-xs text-gray-500 uppercase">
        <tr>
          <th className="px-2 py-1">Analyzer</th>
          <th className="px-2 py-1">Type</th>
          <th className="px-2 py-1">Severity</th>
          <th className="px-2 py-1">Status</th>
          <th className="px-2 py-1">Message</th>
          <th className="px-2 py-1">First observed</th>
          <th className="px-2 py-1">Last observed</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {query.data.map((analysis) => (
          <tr key={analysis.id}>
            <td className="px-2 py-1">{analysis.analyzer}</td>
            <td className="px-2 py-1">{analysis.analysis_type}</td>
            <td className="px-2 py-1">{analysis.severity}</td>
            <td className="px-2 py-1">{analysis.status}</td>
            <td className="px-2 py-1">{analysis.summary ?? analysis.message}</td>
            <td className="px-2 py-1">
              <FormattedDate value={analysis.first_observed} />
            </td>
            <td className="px-2 py-1">
              <FormattedDate value={analysis.last_observed} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Relationships tab: configs reachable from this one (incoming and outgoing, depth 10). */
export function RelationshipsTab({ configId }: { configId: string }) {
  const { showDeletedConfigs } = usePreferences();
  const query = useRelatedConfigs(configId, showDeletedConfigs);
  if (query.isError) throw query.error;
  if (query.isPending) return <Skeleton className="h-24 w-full" />;
  if (query.data.length === 0) return <EmptyState />;
  return (
    <table aria-label="Relationships" className="w-full divide-y divide-gray-200 text-sm">
      <thead className="text-left text-xs text-gray-500 uppercase">
        <tr>
          <th className="px-2 py-1">Name</th>
          <th className="px-2 py-1">Type</th>
          <th className="px-2 py-1">Direction</th>
          <th className="px-2 py-1">Health</th>
          <th className="px-2 py-1">Status</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-gray-100">
        {query.data.map((related) => (
          <tr key={`${related.direction}:${related.id}`}>
            <td className="px-2 py-1">
              <Link
                to={`/catalog/${encodeURIComponent(related.id)}`}
                className="flex items-center gap-2 text-blue-700 hover:underline"
              >
                <ResourceIcon type={related.type} />
                <span className={related.deleted_at ? 'line-through' : undefined}>
                  {related.name ?? related.id}
                </span>
              </Link>
            </td>
            <td className="px-2 py-1">{related.type}</td>
            <td className="px-2 py-1">{related.direction === 'incoming' ? 'Incoming' : 'Outgoing'}</td>
            <td className="px-2 py-1">
              {related.health && (
                <span className="flex items-center gap-1">
                  <StatusDot status={related.health} size="sm" />
                  {related.health}
                </span>
              )}
            </td>
            <td className="px-2 py-1">{related.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
