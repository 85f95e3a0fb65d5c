import type { Role } from '@opsdeck/contracts';

/**
 * The spec core §6 matrix, written from the spec's words (not from the contracts' table it
 * checks): admin everything; editor reads everything and writes all but connections,
 * identities and rbac; the others read all but rbac, identities and connections; commanders and
 * responders write responder, incident, evidences and comments.
 */
const RESPONDER_WRITES = ['responder', 'incident', 'evidences', 'comments'];

export function matrixAllows(role: Role, resource: string, action: 'read' | 'write'): boolean {
  const hiddenFromResponders = ['rbac', 'identities', 'connections'];
  if (role === 'admin') return true;
  if (role === 'editor')
    return action === 'read' || !['connections', 'identities', 'rbac'].includes(resource);
  if (action === 'read') return !hiddenFromResponders.includes(resource);
  return (role === 'commander' || role === 'responder') && RESPONDER_WRITES.includes(resource);
}
