import { PlaybooksAction } from '../../../components/playbooks-action/playbooks-action';
import clsx from 'clsx';
import { Fragment, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import { Card } from '../../../components/card/card';
import { FormattedDate } from '../../../components/date/age';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { ApiError } from '../../../lib/api-client';
import { formatCost } from '../../../lib/format/cost';
import { useConfigDetail, useConfigParents, type ConfigDetail } from '../api/config-detail';
import { EvidenceAction } from './evidence-action';

/** Sub-pages of /catalog/{id} (core §2), each its own URL; '' is the spec. */
export const CONFIG_DETAIL_TABS = [
  { path: '', label: 'Spec' },
  { path: 'changes', label: 'Changes' },
  { path: 'insights', label: 'Insights' },
  { path: 'relationships', label: 'Relationships' },
  { path: 'checks', label: 'Checks' },
] as const;

const COST_FIELDS = [
  { field: 'cost_per_minute', label: 'Cost per minute' },
  { field: 'cost_total_1d', label: 'Cost (1d)' },
  { field: 'cost_total_7d', label: 'Cost (7d)' },
  { field: 'cost_total_30d', label: 'Cost (30d)' },
] as const;

/** The item a sub-page of /catalog/{id} belongs to. */
export function useConfigDetailContext(): ConfigDetail {
  return useOutletContext<ConfigDetail>();
}

function Breadcrumb({ config }: { config: ConfigDetail }) {
  const parents = useConfigParents(config.id);
  return (
    <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1 text-sm">
      <Link to="/catalog" className="text-blue-700 hover:underline">
        Catalog
      </Link>
      <span className="text-gray-400">/</span>
      <Link
        to={`/catalog?type=${encodeURIComponent(config.type ?? '')}`}
        className="text-blue-700 hover:underline"
      >
        {config.type}
      </Link>
      {(parents.data ?? []).map((parent) => (
        <span key={parent.id} className="flex items-center gap-1">
          <span className="text-gray-400">/</span>
          <Link to={`/catalog/${encodeURIComponent(parent.id)}`} className="text-blue-700 hover:underline">
            {parent.name ?? parent.id}
          </Link>
        </span>
      ))}
    </nav>
  );
}

/**
 * /catalog/{id} (core §2): the parent breadcrumb, the item's header, then links to its sub-pages
 * (spec, changes, insights, relationships, checks); the chosen sub-page renders below.
 */
export function ConfigDetailPage({
  extraTabs,
}: {
  /** More tabs after Checks, composed by the route (views attached to the item's type). */
  extraTabs?: (configId: string) => ReactNode;
} = {}) {
  const { id = '' } = useParams();
  const query = useConfigDetail(id);

  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NoDetailsFound />;
    throw query.error;
  }
  if (query.isPending) return <PageSkeleton label="Loading config" />;
  const config = query.data;

  return (
    <div className="flex flex-col gap-4">
      <Breadcrumb config={config} />
      <Card as="header">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="flex flex-1 items-center gap-2 text-lg font-semibold text-gray-900">
            <ResourceIcon type={config.type} configClass={config.config_class} className="size-5" />
            <span className={config.deleted_at ? 'line-through' : undefined}>{config.name ?? config.id}</span>
          </h2>
          <PlaybooksAction target={{ kind: 'config', id: config.id, name: config.name ?? config.id }} />
          <EvidenceAction target={{ kind: 'config', configId: config.id, name: config.name ?? config.id }} />
        </div>
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
          {COST_FIELDS.filter(({ field }) => config[field] !== null && config[field] !== undefined).map(
            ({ field, label }) => (
              <Fragment key={field}>
                <dt className="text-gray-500">{label}</dt>
                <dd className="tabular-nums">{formatCost(config[field])}</dd>
              </Fragment>
            ),
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
      </Card>
      <nav aria-label="Config details" className="flex gap-1 border-b border-gray-200">
        {CONFIG_DETAIL_TABS.map((tab) => (
          <NavLink
            key={tab.path}
            to={
              tab.path
                ? `/catalog/${encodeURIComponent(config.id)}/${tab.path}`
                : `/catalog/${encodeURIComponent(config.id)}`
            }
            end
            className={({ isActive }) =>
              clsx(
                '-mb-px border-b-2 px-3 py-1.5 text-sm',
                isActive
                  ? 'border-blue-600 text-blue-700'
                  : 'border-transparent text-gray-600 hover:text-gray-900',
              )
            }
          >
            {tab.label}
          </NavLink>
        ))}
        {extraTabs?.(config.id)}
      </nav>
      <section aria-label="Config details content">
        <Outlet context={config} />
      </section>
    </div>
  );
}
