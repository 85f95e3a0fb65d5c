/**
 * The health module: canaries → checks rows, their schedules and runs, results, rollups and
 * retention, and the health API (summary, statuses, Run Now). Check types live in checks/.
 */

export { healthRoutes, type HealthRoutesOptions } from './routes.js';
export { WEBHOOK_BODY_LIMIT, webhookRoutes, type WebhookRoutesOptions } from './webhook-routes.js';
export {
  createHealthService,
  parseLabelsParameter,
  parseTimeParameter,
  type CheckSummary,
  type HealthService,
  type RunNowResult,
} from './health-service.js';
export {
  CANARY_JOB_NAME,
  CANARY_RESOURCE_TYPE,
  canaryScheduleName,
  createCanaryScheduler,
  type CanaryScheduler,
} from './canary-scheduler.js';
export {
  canaryScheduleOf,
  DEFAULT_CANARY_SCHEDULE,
  runCanaryChecks,
  type CanaryRunnerOptions,
  type CanaryRunSummary,
} from './canary-runner.js';
export {
  declaredChecks,
  loadCanary,
  syncCanaryChecks,
  type CanaryRow,
  type SyncedCheck,
} from './canary-sync.js';
export {
  CHECK_FAILED_EVENT,
  CHECK_PASSED_EVENT,
  recordCheckResult,
  recordDerivedResult,
  type RecordedCheck,
} from './check-recorder.js';
export {
  CHECK_METRIC_LABELS_ENV,
  checkMetricLabels,
  createCheckMetrics,
  evaluateCheckMetrics,
  metricLabelName,
  pruneDeletedCheckMetrics,
  type CheckIdentity,
  type CheckMetrics,
} from './check-metrics.js';
export { planCanaryRun, type PlannedCheck } from './check-dependencies.js';
export {
  applyCheckStatusRetention,
  checkStatusRetentionDays,
  DEFAULT_CHECK_STATUS_RETENTION_DAYS,
  rollupCheckStatuses,
  rollupRange,
} from './rollups.js';
export {
  CHECK_STATUS_COMPACTION_SCHEDULE,
  compactCheckStatuses,
  compactionCutoff,
  type CompactionOptions,
  type CompactionResult,
} from './compaction.js';
export { startHealthWorkers, type HealthWorkers, type HealthWorkersOptions } from './workers.js';
export { loadCanaryStatuses, type CanaryStatus } from './canary-status.js';
export { healthModule } from './module.js';
export { canaryKind, canaryScheduleFromSpec } from './canary-kind.js';
export {
  componentIdsOfCheck,
  countChecksNotHealthy,
  loadCheckForSelection,
  type CheckForSelection,
} from './check-lookup.js';
export {
  linkChecksToComponent,
  parseLabelSelector,
  runCheckSpec,
  selectChecks,
  type CheckSelector,
  type LookupRun,
  type SelectedCheck,
} from './check-execution.js';
export type { RunCheckOptions } from './checks/index.js';
