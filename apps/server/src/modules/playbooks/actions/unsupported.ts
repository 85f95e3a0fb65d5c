import { ActionFailure, type PlaybookActionType } from './types.js';

/** Types that need a cloud or a cluster: accepted in a spec, failed at run time. */
export const UNSUPPORTED_ACTION_TYPES = ['pod', 'github', 'azureDevopsPipeline', 'ai'] as const;

export function unsupportedAction(type: string): PlaybookActionType {
  return {
    type,
    run() {
      return Promise.reject(new ActionFailure(`${type}: action type not supported here`));
    },
  };
}
