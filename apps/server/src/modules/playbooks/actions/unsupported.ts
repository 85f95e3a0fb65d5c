import { ActionFailure, type PlaybookActionType } from './types.js';

export { UNSUPPORTED_ACTION_TYPES } from './action-keys.js';

export function unsupportedAction(type: string): PlaybookActionType {
  return {
    type,
    run() {
      return Promise.reject(new ActionFailure(`${type}: action type not supported here`));
    },
  };
}
