import {
  settingsResourceListSchema,
  settingsResourceSchema,
  type SettingsResource,
  type SettingsResourceTable,
  type SettingsResourceUpdate,
} from '@opsdeck/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** The generic settings resources (spec core §2): the server's allowlist and its 100 newest rows. */
const key = (table: SettingsResourceTable) => ['settings-resources', table] as const;
const path = (table: SettingsResourceTable, id?: string) =>
  `/api/settings/resources/${table}${id ? `/${encodeURIComponent(id)}` : ''}`;

export const useSettingsResourceList = (table: SettingsResourceTable) =>
  useQuery({
    queryKey: key(table),
    queryFn: ({ signal }) => apiFetch(path(table), { signal }, { schema: settingsResourceListSchema }),
  });

export const useSettingsResource = (table: SettingsResourceTable, id: string) =>
  useQuery({
    queryKey: [...key(table), 'one', id],
    queryFn: ({ signal }) => apiFetch(path(table, id), { signal }, { schema: settingsResourceSchema }),
  });

export function useUpdateSettingsResource(table: SettingsResourceTable, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: SettingsResourceUpdate): Promise<SettingsResource> =>
      apiFetch(
        path(table, id),
        { method: 'PATCH', body: JSON.stringify(changes) },
        { schema: settingsResourceSchema },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: key(table) }),
  });
}
