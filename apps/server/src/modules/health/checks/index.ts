export {
  CANARY_SETTING_KEYS,
  CHECK_TYPE_NOT_SUPPORTED_MESSAGE,
  CHECK_TYPES,
  SUPPORTED_CHECK_TYPES,
  UNSUPPORTED_CHECK_TYPES,
  findCheckType,
  isPushedCheckType,
} from './registry.js';
export { listCanaryChecks, type CanaryCheckEntry } from './canary-checks.js';
export { runCheck, runCheckOfType } from './run-check.js';
export {
  DEFAULT_CHECK_TIMEOUT_MS,
  type CheckRun,
  type DerivedCheckResult,
  type RunCheckOptions,
} from './run-types.js';
export {
  CheckSpecError,
  type CanaryMetadata,
  type CheckContext,
  type CheckLogger,
  type CheckMetric,
  type CheckResult,
  type CheckRetries,
  type CheckSpecBase,
  type CheckType,
  type ResolvedConnection,
  type ValueFromReference,
} from './types.js';
export {
  pushedWebhookCheck,
  webhookCheck,
  webhookPath,
  type WebhookCheckSpec,
  type WebhookPayload,
} from './webhook.js';
