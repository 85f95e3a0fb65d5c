import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { usePreferences } from '../../../lib/preferences/use-preferences';
import {
  decodeFilterStates,
  encodeFilterStates,
  filterParamName,
} from '../../../lib/url-state/filter-encoding';
import { useUpdateSearchParams } from '../../../lib/url-state/search-param';
import { TABLE_PARAMS } from '../../../lib/url-state/table-params';
import type { ConfigListFilters } from '../lib/catalog-query';

/** URL parameters of the catalog list; the tri-state ones live in `<name>.filter`. */
export const CATALOG_PARAMS = {
  type: 'type',
  search: 'search',
  health: 'health',
  status: 'status',
  tags: 'tags',
  labels: 'labels',
} as const;

const TRI_STATE_FILTERS = [
  CATALOG_PARAMS.health,
  CATALOG_PARAMS.status,
  CATALOG_PARAMS.tags,
  CATALOG_PARAMS.labels,
];

/** The list filters from the URL plus the Show deleted configs preference. */
export function useCatalogFilters(): ConfigListFilters {
  const [params] = useSearchParams();
  const { showDeletedConfigs } = usePreferences();
  const serialized = params.toString();
  return useMemo(
    () => ({
      type: params.get(CATALOG_PARAMS.type) ?? undefined,
      search: params.get(CATALOG_PARAMS.search) ?? undefined,
      health: decodeFilterStates(params.get(filterParamName(CATALOG_PARAMS.health))),
      status: decodeFilterStates(params.get(filterParamName(CATALOG_PARAMS.status))),
      tags: decodeFilterStates(params.get(filterParamName(CATALOG_PARAMS.tags))),
      labels: decodeFilterStates(params.get(filterParamName(CATALOG_PARAMS.labels))),
      showDeleted: showDeletedConfigs,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read only when the query string changes
    [serialized, showDeletedConfigs],
  );
}

/** Setters that return to the first page, since the result set changes. */
export function useCatalogFilterActions() {
  const update = useUpdateSearchParams();
  const resetPage = (draft: URLSearchParams) => {
    draft.delete(TABLE_PARAMS.pageIndex);
  };
  const selectType = useCallback(
    (type: string | undefined) =>
      update((draft) => {
        // Filters of another type's values make no sense for the new one.
        for (const filter of TRI_STATE_FILTERS) draft.delete(filterParamName(filter));
        draft.delete(CATALOG_PARAMS.search);
        draft.delete(TABLE_PARAMS.sortBy);
        draft.delete(TABLE_PARAMS.sortOrder);
        resetPage(draft);
        if (type) draft.set(CATALOG_PARAMS.type, type);
        else draft.delete(CATALOG_PARAMS.type);
      }),
    [update],
  );
  /**
   * A group of the summary grouped by a tag or label key: the list of every type, filtered to
   * items whose `key` is `value` (`tags.filter` / `labels.filter`, like the list's own filters).
   * Group By stays in the URL, so '← All types' and Back return to the same groups.
   */
  const selectGroup = useCallback(
    (kind: 'tag' | 'label', key: string, value: string) =>
      update((draft) => {
        for (const filter of TRI_STATE_FILTERS) draft.delete(filterParamName(filter));
        draft.delete(CATALOG_PARAMS.type);
        draft.delete(CATALOG_PARAMS.search);
        draft.delete(TABLE_PARAMS.sortBy);
        draft.delete(TABLE_PARAMS.sortOrder);
        resetPage(draft);
        const filter = kind === 'tag' ? CATALOG_PARAMS.tags : CATALOG_PARAMS.labels;
        draft.set(filterParamName(filter), encodeFilterStates({ [`${key}=${value}`]: 1 }));
      }),
    [update],
  );
  const setSearch = useCallback(
    (search: string) =>
      update(
        (draft) => {
          if (search) draft.set(CATALOG_PARAMS.search, search);
          else draft.delete(CATALOG_PARAMS.search);
          resetPage(draft);
        },
        { replace: true },
      ),
    [update],
  );
  return { selectType, selectGroup, setSearch };
}
