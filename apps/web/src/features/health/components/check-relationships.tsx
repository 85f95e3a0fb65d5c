import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import type { RelatedItem } from '../api/check-relationships';

/** Where a related item opens: components in topology, config items in the catalog (core §2). */
export function relatedItemPath(item: RelatedItem): string {
  return item.kind === 'component' ? `/topology/${item.id}` : `/catalog/${item.id}`;
}

/** The check panel's Relationships tab: the components and config items the check is linked to. */
export function CheckRelationships({ items }: { items: readonly RelatedItem[] }) {
  if (items.length === 0) return <EmptyState />;
  return (
    <table className="w-full text-left text-sm" aria-label="Relationships">
      <thead className="text-xs text-gray-600 uppercase">
        <tr>
          <th className="py-1 pr-2">Name</th>
          <th className="py-1 pr-2">Type</th>
          <th className="py-1">Kind</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={`${item.kind}:${item.id}`} className="border-t border-gray-100">
            <td className="py-1 pr-2">
              <Link
                to={relatedItemPath(item)}
                className="flex items-center gap-2 text-blue-700 hover:underline"
              >
                <ResourceIcon type={item.type ?? undefined} />
                {item.name ?? item.id}
              </Link>
            </td>
            <td className="py-1 pr-2">{item.type ?? ''}</td>
            <td className="py-1">{item.kind === 'component' ? 'Component' : 'Config'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
