/**
 * The keys of a playbook action, without the actions themselves: the spec check on save
 * (playbook-kind.ts) reads them without loading the action code and its drivers.
 */

/** Types that need a cloud or a cluster: accepted in a spec, failed at run time. */
export const UNSUPPORTED_ACTION_TYPES = ['pod', 'github', 'azureDevopsPipeline', 'ai'] as const;

/** Types run here (each has its module in this folder). */
export const SUPPORTED_ACTION_TYPES = [
  'exec',
  'http',
  'sql',
  'notification',
  'prometheus',
  'logs',
  'gitops',
] as const;

/** Every action type a spec may name. */
export const ACTION_TYPE_KEYS: readonly string[] = [...SUPPORTED_ACTION_TYPES, ...UNSUPPORTED_ACTION_TYPES];

/** Keys of an action that are not its type. */
export const COMMON_ACTION_KEYS = new Set([
  'name',
  'if',
  'delay',
  'timeout',
  'retry',
  'description',
  'runsOn',
  'templatesOn',
  'filter',
]);

/** The keys of an action that are not common ones: exactly one, its type, when the action is well formed. */
export function actionTypeKeys(action: Record<string, unknown>): string[] {
  return Object.keys(action).filter((key) => !COMMON_ACTION_KEYS.has(key));
}

/** Why an action's keys name no single known type, or undefined when they do. */
export function actionTypeProblem(action: Record<string, unknown>): string | undefined {
  const keys = actionTypeKeys(action);
  if (keys.length === 0) return `has no action type (one of ${ACTION_TYPE_KEYS.join(', ')})`;
  if (keys.length > 1) return `has several action types: ${keys.join(', ')}`;
  if (!ACTION_TYPE_KEYS.includes(keys[0]))
    return `${keys[0]}: unknown action type (one of ${ACTION_TYPE_KEYS.join(', ')})`;
  return undefined;
}
