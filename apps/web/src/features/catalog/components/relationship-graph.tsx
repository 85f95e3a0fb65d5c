import clsx from 'clsx';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { StatusDot } from '../../../components/status-dot/status-dot';
import type { RelatedConfig } from '../api/config-detail';
import { layoutRelationshipGraph, NODE_HEIGHT, NODE_WIDTH } from '../lib/relationship-graph';

const PADDING = 16;

/**
 * The relationship graph: incoming items left of the item, outgoing ones right, one column per
 * hop; each node links to its item. Drawn with SVG edges under HTML nodes (no graph library is
 * installed), scrolling when wider than the page.
 */
export function RelationshipGraph({ rootId, rows }: { rootId: string; rows: readonly RelatedConfig[] }) {
  const layout = useMemo(() => layoutRelationshipGraph(rootId, rows), [rootId, rows]);
  const position = useMemo(() => new Map(layout.nodes.map((node) => [node.item.id, node])), [layout]);
  const width = layout.width + PADDING * 2;
  const height = layout.height + PADDING * 2;
  return (
    <figure
      aria-label="Relationship graph"
      className="overflow-auto rounded border border-gray-200 bg-gray-50"
    >
      <div className="relative" style={{ width, height }}>
        <svg width={width} height={height} className="absolute inset-0" aria-hidden="true">
          <defs>
            <marker
              id="relationship-arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="6"
              markerHeight="6"
              orient="auto"
            >
              <path d="M0,0 L10,5 L0,10 z" className="fill-gray-400" />
            </marker>
          </defs>
          {layout.edges.map((edge) => {
            const from = position.get(edge.from);
            const to = position.get(edge.to);
            if (!from || !to) return null;
            const forward = to.x >= from.x;
            const x1 = PADDING + from.x + (forward ? NODE_WIDTH : 0);
            const x2 = PADDING + to.x + (forward ? 0 : NODE_WIDTH);
            const y1 = PADDING + from.y + NODE_HEIGHT / 2;
            const y2 = PADDING + to.y + NODE_HEIGHT / 2;
            const bend = Math.max(30, Math.abs(x2 - x1) / 2) * (forward ? 1 : -1);
            return (
              <path
                key={`${edge.from}->${edge.to}`}
                data-edge={`${edge.from}->${edge.to}`}
                d={`M${x1},${y1} C${x1 + bend},${y1} ${x2 - bend},${y2} ${x2},${y2}`}
                className="fill-none stroke-gray-400"
                strokeWidth={1.5}
                markerEnd="url(#relationship-arrow)"
              />
            );
          })}
        </svg>
        {layout.nodes.map((node) => {
          const root = node.item.id === rootId;
          return (
            <Link
              key={node.item.id}
              to={`/catalog/${encodeURIComponent(node.item.id)}/relationships`}
              aria-current={root ? 'page' : undefined}
              data-layer={node.layer}
              title={`${node.item.type ?? ''} ${node.item.name ?? node.item.id}`}
              className={clsx(
                'absolute flex items-center gap-2 overflow-hidden rounded border bg-white px-2 text-xs shadow-sm hover:border-blue-500',
                root ? 'border-blue-600 ring-2 ring-blue-200' : 'border-gray-300',
              )}
              style={{
                left: PADDING + node.x,
                top: PADDING + node.y,
                width: NODE_WIDTH,
                height: NODE_HEIGHT,
              }}
            >
              <ResourceIcon type={node.item.type} className="size-4 shrink-0" />
              <span className="flex min-w-0 flex-col">
                <span
                  className={clsx(
                    'truncate font-medium text-gray-900',
                    node.item.deleted_at && 'line-through',
                  )}
                >
                  {node.item.name ?? node.item.id}
                </span>
                <span className="truncate text-gray-500">{node.item.type}</span>
              </span>
              {node.item.health && <StatusDot status={node.item.health} size="sm" className="ml-auto" />}
            </Link>
          );
        })}
      </div>
    </figure>
  );
}
