import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { namedRowSchema, relationRowSchemas, type NamedRow } from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';
import { fetchCounted, fetchRows } from '../../../lib/data-api';

/**
 * The permissions manager's calls (settings §7): the list is a page of `permissions_summary`
 * with its total (`data` and `totalEntries`); create, update and delete go to `permissions`
 * (`DELETE /permissions?id=...`). The server fills created_by / updated_by with the caller.
 */

const KEY = ['permissions'] as const;

/**
 * One page of permissions, newest first; `only` narrows them to one resource's (a column equal
 * to a value). The page count is the data table's: ceil(total / pageSize), or 1 (settings §9).
 */
export function usePermissionsPage(
  pageIndex: number,
  pageSize: number,
  only?: { column: string; value: string },
) {
  return useQuery({
    queryKey: [...KEY, 'page', pageIndex, pageSize, only?.column, only?.value],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({
        deleted_at: 'is.null',
        order: 'created_at.desc,id',
        limit: String(pageSize),
        offset: String(pageIndex * pageSize),
      });
      if (only) query.set(only.column, `eq.${only.value}`);
      const { rows, total } = await fetchCounted(
        `/api/db/permissions_summary?${query.toString()}`,
        signal,
        relationRowSchemas.permissions_summary,
      );
      return { data: rows, totalEntries: total };
    },
  });
}

function useInvalidating<T>(mutationFn: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }) });
}

export function useSavePermission() {
  return useInvalidating(({ id, row }: { id?: string; row: Record<string, unknown> }) =>
    id
      ? apiFetch(`/api/db/permissions?id=eq.${encodeURIComponent(id)}`, {
          method: 'PATCH',
          body: JSON.stringify(row),
        })
      : apiFetch('/api/db/permissions', { method: 'POST', body: JSON.stringify(row) }),
  );
}

export function useDeletePermission() {
  return useInvalidating((id: string) =>
    apiFetch(`/api/db/permissions?id=eq.${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
}

/** The options of a selector: `select=id,name` of a relation, by name, at most 500. */
export function useNamedOptions(relation: string | undefined, filter = 'deleted_at=is.null') {
  return useQuery({
    queryKey: ['permission-options', relation, filter],
    enabled: relation !== undefined,
    queryFn: ({ signal }): Promise<NamedRow[]> =>
      fetchRows(
        `/api/db/${relation}?select=id,name&${filter}&order=name,id&limit=500`,
        signal,
        namedRowSchema,
      ),
  });
}
