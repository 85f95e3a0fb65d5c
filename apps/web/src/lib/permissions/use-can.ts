import { isRole, isViewer, type MatrixAction, type Resource } from '@opsdeck/contracts';
import { useCallback } from 'react';
import { useCurrentAccess } from './access-context';
import { canAccess } from './can';

/** Whether the signed-in user may take `action` on `resource`; false while the user loads. */
export function useCan(resource: Resource, action: MatrixAction): boolean {
  return useCanFunction()(resource, action);
}

/** The same check as a function, for lists of entries (sidebar, menus). */
export function useCanFunction(): (resource: Resource, action: MatrixAction) => boolean {
  const { status, roles, permissions } = useCurrentAccess();
  return useCallback(
    (resource: Resource, action: MatrixAction) =>
      status === 'signed-in' && canAccess({ roles, permissions }, resource, action),
    [status, roles, permissions],
  );
}

/** The viewer flag of spec core §6: the user has the viewer or guest role. */
export function useIsViewer(): boolean {
  const { roles } = useCurrentAccess();
  return isViewer(roles.filter(isRole));
}
