import type { TopologyComponent } from '@opsdeck/contracts';
import { Link, useParams } from 'react-router';
import { Card } from '../../../components/card/card';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { EvidenceAction } from '../../../components/evidence-action/evidence-action';
import { PlaybooksAction } from '../../../components/playbooks-action/playbooks-action';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { TagList } from '../../../components/tag-list/tag-list';
import { usePreferences, useShowHiddenComponents } from '../../../lib/preferences';
import { Age } from '../../../components/date/age';
import { snapshotPath, useComponentChanges, useComponentInsights, useTopology } from '../api/topology';
import {
  checkPath,
  configPath,
  componentPath,
  propertyLabel,
  propertyValue,
  TOPOLOGY_PATH,
} from '../lib/topology-lib';
import { CardGrid } from './card-grid';
import { TopologyCard } from './topology-card';

export const NO_CHILDREN_MESSAGE = 'No child components';

interface ConfigRow {
  id: string;
  configId: string;
  text: string;
  config: string | null;
  severity: string | null;
  at: string | null;
}

/** Insights or changes of the configs linked to the component: each links to its config. */
function ConfigRowsCard(props: { title: string; empty: string; rows?: ConfigRow[]; error?: string }) {
  const { title, empty, rows, error } = props;
  return (
    <Card title={title}>
      {error ? (
        <p className="text-sm text-red-700">{error}</p>
      ) : !rows ? (
        <p className="text-sm text-gray-500">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-gray-500">{empty}</p>
      ) : (
        <ul aria-label={title} className="flex flex-col gap-1 text-sm">
          {rows.map((row) => (
            <li key={row.id} className="flex flex-col">
              <span className="text-gray-900">
                {row.severity && <span className="mr-1 text-xs text-gray-500 uppercase">{row.severity}</span>}
                {row.text}
              </span>
              <span className="flex gap-2 text-xs text-gray-500">
                <Link to={configPath(row.configId)} className="text-blue-700 hover:underline">
                  {row.config ?? row.configId}
                </Link>
                {row.at && <Age value={row.at} />}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The details panel of a component: properties, labels, checks, configs, relationships, insights, changes, incidents. */
function ComponentDetails({ component }: { component: TopologyComponent }) {
  const insights = useComponentInsights(component.id);
  const changes = useComponentChanges(component.id);
  return (
    <aside aria-label="Details" className="flex w-full shrink-0 flex-col gap-3 lg:w-80">
      <Card title="Properties">
        {component.properties.length === 0 ? (
          <p className="text-sm text-gray-500">No properties</p>
        ) : (
          <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
            {component.properties.map((property, index) => (
              <div key={`${property.name ?? ''}-${index}`} className="contents">
                <dt className="text-gray-500">{propertyLabel(property)}</dt>
                <dd className="text-gray-900 tabular-nums">{propertyValue(property)}</dd>
              </div>
            ))}
          </dl>
        )}
      </Card>
      <Card title="Labels">
        {Object.keys(component.labels).length === 0 ? (
          <p className="text-sm text-gray-500">No labels</p>
        ) : (
          <TagList tags={component.labels} />
        )}
      </Card>
      <Card title="Checks">
        {component.checks.length === 0 ? (
          <p className="text-sm text-gray-500">No checks</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {component.checks.map((check) => (
              <li key={check.id} className="flex items-center gap-2">
                <StatusDot status={check.status ?? 'unknown'} size="sm" />
                <Link to={checkPath(check.id)} className="text-blue-700 hover:underline">
                  {check.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Configs">
        {component.configs.length === 0 ? (
          <p className="text-sm text-gray-500">No configs</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {component.configs.map((config) => (
              <li key={config.id}>
                <Link to={configPath(config.id)} className="text-blue-700 hover:underline">
                  {config.name}
                </Link>
                {config.type && <span className="ml-2 text-xs text-gray-500">{config.type}</span>}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Relationships">
        {component.relationships.length === 0 ? (
          <p className="text-sm text-gray-500">No related components</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {component.relationships.map((related) => (
              <li key={related.id} className="flex items-center gap-2">
                <StatusDot status={related.health} size="sm" />
                <Link to={componentPath(related.id)} className="text-blue-700 hover:underline">
                  {related.name}
                </Link>
                {related.type && <span className="text-xs text-gray-500">{related.type}</span>}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfigRowsCard
        title="Insights"
        empty="No insights"
        rows={insights.data?.map((row) => ({
          id: row.id,
          configId: row.config_id,
          text: row.summary || row.analyzer || row.analysis_type || row.id,
          config: row.name,
          severity: row.severity,
          at: row.last_observed,
        }))}
        error={insights.error?.message}
      />
      <ConfigRowsCard
        title="Changes"
        empty="No changes"
        rows={changes.data?.map((row) => ({
          id: row.id,
          configId: row.config_id,
          text: row.summary || row.change_type || row.id,
          config: row.name,
          severity: row.severity,
          at: row.created_at,
        }))}
        error={changes.error?.message}
      />
      <Card title="Incidents">
        <p className="text-sm text-gray-700">
          {component.incidents === 0
            ? 'No open incidents'
            : `${component.incidents} open ${component.incidents === 1 ? 'incident' : 'incidents'}`}
        </p>
      </Card>
    </aside>
  );
}

/** /topology/{id} (core §2): a component, its children as cards, and its details. */
export function ComponentPage() {
  const { id = '' } = useParams();
  const { cardWidth } = usePreferences();
  const [showHidden] = useShowHiddenComponents();
  const topology = useTopology({ id, depth: 1, hidden: showHidden ? undefined : 'false' }, id !== '');
  if (topology.isPending) return <PageSkeleton label="Loading component" className="p-4" />;
  if (topology.isError) return <EmptyState message={topology.error.message} className="p-4" />;
  const component = topology.data.components[0];
  if (!component) return <EmptyState message="Component not found" className="p-4" />;
  const children = component.components ?? [];
  return (
    <div className="flex flex-col gap-4 p-4">
      <nav aria-label="Breadcrumb" className="flex items-center gap-2 text-sm text-gray-600">
        <Link to={TOPOLOGY_PATH} className="hover:underline">
          Topology
        </Link>
        {component.parent_id && (
          <>
            <span aria-hidden>/</span>
            <Link to={componentPath(component.parent_id)} className="hover:underline">
              Parent
            </Link>
          </>
        )}
      </nav>
      <header className="flex flex-wrap items-center gap-3">
        <ResourceIcon
          icon={component.icon ?? undefined}
          type={component.type ?? undefined}
          className="size-6"
        />
        <h1 className="text-xl font-semibold text-gray-900">{component.name}</h1>
        <StatusDot status={component.health} label={component.health} />
        {component.type && <span className="text-sm text-gray-500">{component.type}</span>}
        {component.status_reason && <span className="text-sm text-gray-600">{component.status_reason}</span>}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <PlaybooksAction target={{ kind: 'component', id: component.id, name: component.name }} />
          <EvidenceAction target={{ kind: 'component', componentId: component.id, name: component.name }} />
          <a href={snapshotPath(component.id)} download className="text-sm text-blue-700 hover:underline">
            Download Snapshot
          </a>
        </div>
      </header>
      <div className="flex flex-col gap-4 lg:flex-row">
        {children.length === 0 ? (
          <section aria-label="Child components" className="flex min-w-0 flex-1 flex-col">
            <EmptyState message={NO_CHILDREN_MESSAGE} />
          </section>
        ) : (
          <CardGrid components={children} cardWidth={cardWidth} label="Child components" />
        )}
        <ComponentDetails component={component} />
      </div>
    </div>
  );
}

/** /view/topology/{id} (core §2): the component's card alone, for embedding; no shell. */
export function TopologyCardView() {
  const { id = '' } = useParams();
  const { cardWidth } = usePreferences();
  const topology = useTopology({ id, depth: 0 }, id !== '');
  if (topology.isPending) return <PageSkeleton label="Loading component" className="p-2" />;
  if (topology.isError) return <EmptyState message={topology.error.message} className="p-2" />;
  const component = topology.data.components[0];
  if (!component) return <EmptyState message="Component not found" className="p-2" />;
  return (
    <main className="p-2">
      <TopologyCard component={component} width={cardWidth} href={null} />
    </main>
  );
}
