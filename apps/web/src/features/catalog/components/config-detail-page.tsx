import clsx from 'clsx';
import { Link, useParams } from 'react-router';
import { FormattedDate } from '../../../components/date/age';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { ApiError } from '../../../lib/api-client';
import { enumParam, useSearchParam } from '../../../lib/url-state/search-param';
import { useConfigDetail } from '../api/config-detail';
import { ChangesTab, InsightsTab, RelationshipsTab, SpecTab } from './config-detail-tabs';

const TABS = ['spec', 'changes', 'insights', 'relationships'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  spec: 'Spec',
  changes: 'Changes',
  insights: 'Insights',
  relationships: 'Relationships',
};
const tabParam = enumParam(TABS);

/** /catalog/{id} (core §2): header, then Spec, Changes, Insights and Relationships tabs (tab in the URL). */
export function ConfigDetailPage() {
  const { id = '' } = useParams();
  const query = useConfigDetail(id);
  const [tab, setTab] = useSearchParam<Tab>('tab', tabParam, 'spec');

  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NoDetailsFound />;
    throw query.error;
  }
  if (query.isPending) return <PageSkeleton label="Loading config" />;
  const config = query.data;

  return (
    <div className="flex flex-col gap-4">
      <Link
        to={`/catalog?type=${encodeURIComponent(config.type ?? '')}`}
        className="text-sm text-blue-700 hover:underline"
      >
        ← {config.type}
      </Link>
      <header className="flex flex-col gap-2 rounded border border-gray-200 bg-white p-4">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-gray-900">
          <ResourceIcon type={config.type} configClass={config.config_class} className="size-5" />
          <span className={config.deleted_at ? 'line-through' : undefined}>{config.name ?? config.id}</span>
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-gray-500">Type</dt>
          <dd data-testid="config-type">{config.type}</dd>
          {config.namespace && (
            <>
              <dt className="text-gray-500">Namespace</dt>
              <dd>{config.namespace}</dd>
            </>
          )}
          <dt className="text-gray-500">Health</dt>
          <dd className="flex items-center gap-1">
            {config.health ? (
              <>
                <StatusDot status={config.health} size="sm" /> {config.health}
              </>
            ) : (
              'unknown'
            )}
          </dd>
          {config.status && (
            <>
              <dt className="text-gray-500">Status</dt>
              <dd>{config.status}</dd>
            </>
          )}
          {config.description && (
            <>
              <dt className="text-gray-500">Description</dt>
              <dd>{config.description}</dd>
            </>
          )}
          <dt className="text-gray-500">Created</dt>
          <dd>
            <FormattedDate value={config.created_at} />
          </dd>
          <dt className="text-gray-500">Updated</dt>
          <dd>
            <FormattedDate value={config.updated_at} />
          </dd>
          {config.deleted_at && (
            <>
              <dt className="text-gray-500">Deleted</dt>
              <dd>
                <FormattedDate value={config.deleted_at} />
              </dd>
            </>
          )}
          <dt className="text-gray-500">Tags</dt>
          <dd aria-label="Tags">
            <TagList tags={config.tags} />
          </dd>
          <dt className="text-gray-500">Labels</dt>
          <dd aria-label="Labels">
            <TagList tags={config.labels} />
          </dd>
        </dl>
      </header>
      <div role="tablist" aria-label="Config details" className="flex gap-1 border-b border-gray-200">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={clsx(
              '-mb-px border-b-2 px-3 py-1.5 text-sm',
              tab === name
                ? 'border-blue-600 text-blue-700'
                : 'border-transparent text-gray-600 hover:text-gray-900',
            )}
          >
            {TAB_LABELS[name]}
          </button>
        ))}
      </div>
      <section role="tabpanel" aria-label={TAB_LABELS[tab]}>
        {tab === 'spec' && <SpecTab config={config.config} />}
        {tab === 'changes' && <ChangesTab configId={config.id} />}
        {tab === 'insights' && <InsightsTab configId={config.id} />}
        {tab === 'relationships' && <RelationshipsTab configId={config.id} />}
      </section>
    </div>
  );
}
