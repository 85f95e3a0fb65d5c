import { playbookMayUseConnection } from '../../auth/index.js';
import {
  createConnectionResolver,
  createValueFromResolver,
  type OpenedConnection,
} from '../../resources/index.js';
import { ActionFailure, type ActionContext } from './types.js';

/** The named connection (`connection: connection://namespace/name`) of an action, opened. */
export async function openConnection(
  spec: Record<string, unknown>,
  context: ActionContext,
): Promise<OpenedConnection | undefined> {
  const reference = spec.connection;
  if (typeof reference !== 'string' || reference === '') return undefined;
  const resolve = createConnectionResolver(
    context.pool,
    context.secrets,
    createValueFromResolver(context.pool, context.secrets),
  );
  const connection = await resolve(reference);
  if (!connection) throw new ActionFailure(`connection ${reference} was not found`);
  // Spec settings §2.2: the playbook is a permission subject for the connections it uses.
  if (context.playbookId) {
    const decision = await playbookMayUseConnection(context.pool, context.playbookId, connection);
    if (!decision.allowed) throw new ActionFailure(decision.reason);
  }
  return connection;
}
