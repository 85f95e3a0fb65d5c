import { ChangeFeed } from './change-feed';

/** /catalog/changes (core §2): the change feed of the whole catalog. */
export function CatalogChangesPage() {
  return (
    <section aria-label="Catalog changes" className="flex flex-col gap-4">
      <h2 className="text-base font-semibold text-gray-900">Changes</h2>
      <ChangeFeed />
    </section>
  );
}
