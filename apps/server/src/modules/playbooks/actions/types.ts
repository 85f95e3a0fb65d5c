import type { Pool } from '../../../platform/db/pool.js';
import type { SecretBox } from '../../../platform/secrets.js';

/** A file an action produced, kept as an artifact of the run. */
export interface ActionArtifact {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface ActionOutcome {
  /** Kept as the action's result (what `.action.result` of later templates reads). */
  result: Record<string, unknown>;
  artifacts?: ActionArtifact[];
}

/** A failure that still produced output worth keeping (an exec's stdout on exit 1). */
export class ActionFailure extends Error {
  constructor(
    message: string,
    readonly outcome?: ActionOutcome,
  ) {
    super(message);
    this.name = 'ActionFailure';
  }
}

export interface ActionContext {
  /** Aborted on timeout or cancel: the action stops what it runs. */
  signal: AbortSignal;
  /** Milliseconds the action may take. */
  timeoutMs: number;
  /** The playbook's `env`, rendered. */
  env: Record<string, string>;
  pool: Pool;
  secrets?: SecretBox;
  /** The playbook being run: the permission subject its connections are checked for (ADR 0038). */
  playbookId?: string;
  /** The run's resource (what `logs` reads by default). */
  resource?: { componentId?: string; configId?: string; checkId?: string };
}

/**
 * One action type of a playbook (`exec`, `http`, `sql`, ...): `spec` is the action's block under
 * its type key, with its templates already rendered.
 */
export interface PlaybookActionType {
  readonly type: string;
  run(spec: Record<string, unknown>, context: ActionContext): Promise<ActionOutcome>;
}
