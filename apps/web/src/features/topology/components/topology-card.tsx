import type { TopologyComponent } from '@opsdeck/contracts';
import { Link } from 'react-router';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { StatusDot } from '../../../components/status-dot/status-dot';
import {
  childrenSummary,
  componentPath,
  headlineProperties,
  propertyLabel,
  propertyValue,
} from '../lib/topology-lib';

export interface TopologyCardProps {
  component: TopologyComponent;
  /** Card Width preference, px. */
  width: number;
  /** Where the name links; default the component page. Undefined link: plain text (embedded). */
  href?: string | null;
  /** Its place in a long (virtualised) list, for assistive technology: 1-based index of a total. */
  position?: { index: number; of: number };
}

/** A component as a card: name, icon, health, headline properties, children, checks, incidents. */
export function TopologyCard({ component, width, href, position }: TopologyCardProps) {
  const target = href === undefined ? componentPath(component.id) : href;
  const properties = headlineProperties(component);
  const summary = childrenSummary(component.children);
  const name = (
    <span className="flex min-w-0 items-center gap-2">
      <ResourceIcon icon={component.icon ?? undefined} type={component.type ?? undefined} />
      <span className="truncate font-medium text-gray-900">{component.name}</span>
    </span>
  );
  return (
    <article
      aria-label={component.name}
      data-testid="topology-card"
      aria-posinset={position?.index}
      aria-setsize={position?.of}
      style={{ width }}
      className="flex max-w-full flex-col gap-2 rounded border border-gray-200 bg-white p-3 text-sm"
    >
      <header className="flex items-center justify-between gap-2">
        {target ? (
          <Link to={target} className="min-w-0 hover:underline">
            {name}
          </Link>
        ) : (
          name
        )}
        <StatusDot status={component.health} label={component.health} />
      </header>
      {component.type && <span className="text-xs text-gray-500">{component.type}</span>}
      {properties.length > 0 && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          {properties.map((property, index) => (
            <div key={`${property.name ?? ''}-${index}`} className="flex gap-1">
              <dt className="text-gray-500">{propertyLabel(property)}</dt>
              <dd className="font-medium text-gray-800 tabular-nums">{propertyValue(property)}</dd>
            </div>
          ))}
        </dl>
      )}
      <footer className="flex flex-wrap gap-3 text-xs text-gray-600">
        {summary && <span>{summary}</span>}
        {component.checks.length > 0 && (
          <span>
            {component.checks.length} {component.checks.length === 1 ? 'check' : 'checks'}
          </span>
        )}
        {component.incidents > 0 && (
          <span className="text-red-700">
            {component.incidents} {component.incidents === 1 ? 'incident' : 'incidents'}
          </span>
        )}
      </footer>
    </article>
  );
}
