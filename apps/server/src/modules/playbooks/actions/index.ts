import { execAction } from './exec.js';
import { gitopsAction } from './gitops.js';
import { httpAction } from './http.js';
import { logsAction } from './logs.js';
import { notificationAction } from './notification.js';
import { prometheusAction } from './prometheus.js';
import { sqlAction } from './sql.js';
import { actionTypeKeys } from './action-keys.js';
import type { PlaybookActionType } from './types.js';
import { UNSUPPORTED_ACTION_TYPES, unsupportedAction } from './unsupported.js';

export { ActionFailure, type ActionContext, type ActionOutcome, type PlaybookActionType } from './types.js';

const TYPES = new Map<string, PlaybookActionType>(
  [
    execAction,
    httpAction,
    sqlAction,
    notificationAction,
    prometheusAction,
    logsAction,
    gitopsAction,
    ...UNSUPPORTED_ACTION_TYPES.map(unsupportedAction),
  ].map((action) => [action.type, action]),
);

/** The one type key of an action spec with its block, or why there is none. */
export function actionTypeOf(
  action: Record<string, unknown>,
): { type: PlaybookActionType; spec: Record<string, unknown> } | { error: string } {
  const keys = actionTypeKeys(action);
  if (keys.length !== 1) {
    return {
      error: keys.length === 0 ? 'has no action type' : `has several action types: ${keys.join(', ')}`,
    };
  }
  const type = TYPES.get(keys[0]);
  if (!type) return { error: `${keys[0]}: action type not supported here` };
  const block = action[keys[0]];
  return {
    type,
    spec:
      block && typeof block === 'object' && !Array.isArray(block) ? (block as Record<string, unknown>) : {},
  };
}
