import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { evaluateCel, stringifyResult } from '../../expressions/index.js';
import type { CheckMetric } from './checks/index.js';

/**
 * Prometheus metrics of check runs, on the server's /metrics:
 * - per check, in the ecosystem's names: `canary_check` (0 passing, 1 failing),
 *   `canary_check_success_count` and `canary_check_failed_count` (counters) and
 *   `canary_check_duration` (histogram, milliseconds), labelled check_id, name, type, canary_name,
 *   canary_namespace, owner and severity, plus the check labels named in CHECK_METRIC_LABELS;
 * - each check's own `metrics` (name, type gauge/counter/histogram, a CEL `value` and labels with a
 *   `value` or a CEL `valueExpr`), and metrics that checks or transforms report.
 * Scheduled runs, Run Now and webhook pushes all report here. The per-check series of a deleted
 * check are removed when /metrics is next collected (`pruneDeletedCheckMetrics`).
 */

/** Env setting: check label keys that become labels of the per-check metrics (comma separated). */
export const CHECK_METRIC_LABELS_ENV = 'CHECK_METRIC_LABELS';

const BUILT_IN_LABELS = [
  'check_id',
  'name',
  'type',
  'canary_name',
  'canary_namespace',
  'owner',
  'severity',
] as const;

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Milliseconds. */
const DURATION_BUCKETS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000];

/** A check label key as a Prometheus label name: other characters become `_`. */
export function metricLabelName(key: string): string {
  let name = key.replace(/[^a-zA-Z0-9_]/g, '_');
  if (!/^[a-zA-Z_]/.test(name)) name = `_${name}`;
  if (name.startsWith('__')) name = `label${name}`;
  if ((BUILT_IN_LABELS as readonly string[]).includes(name)) name = `label_${name}`;
  return name;
}

/** Reads CHECK_METRIC_LABELS: check label keys, comma separated, duplicates dropped. */
export function checkMetricLabels(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env[CHECK_METRIC_LABELS_ENV] ?? '';
  const keys = raw
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const seen = new Set<string>();
  return keys.filter((key) => {
    const name = metricLabelName(key);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

export interface CheckIdentity {
  checkId: string;
  name: string;
  type: string;
  canaryName: string;
  canaryNamespace: string;
  owner?: string | null;
  severity?: string | null;
  /** The check's labels (canary labels merged with the check's own). */
  labels: Record<string, string>;
}

/** A metric entry of a check spec, as the ecosystem writes it. */
export interface CheckMetricSpec {
  name?: unknown;
  type?: unknown;
  value?: unknown;
  labels?: unknown;
}

export interface CheckMetrics {
  /** Records one recorded result of a check. */
  observeResult(check: CheckIdentity, result: { pass: boolean; duration: number }): void;
  /** Exports metrics already evaluated; returns one error text per metric that could not be. */
  exportMetrics(metrics: readonly CheckMetric[]): string[];
  /** The check ids that have series in the per-check metrics. */
  checkIds(): string[];
  /** Removes every per-check series of these checks (deleted checks leave /metrics). */
  forgetChecks(checkIds: readonly string[]): void;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : stringifyResult(value as never);
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Evaluates a check's `metrics` entries against its expression variables. Every entry that cannot
 * be evaluated gives an error text naming it; the others are returned.
 */
export function evaluateCheckMetrics(
  specs: unknown,
  variables: Record<string, unknown>,
): { metrics: CheckMetric[]; errors: string[] } {
  const metrics: CheckMetric[] = [];
  const errors: string[] = [];
  if (specs === undefined || specs === null) return { metrics, errors };
  if (!Array.isArray(specs)) return { metrics, errors: ['metrics: must be a list'] };
  specs.forEach((raw: unknown, index) => {
    const spec = (raw && typeof raw === 'object' ? raw : {}) as CheckMetricSpec;
    const label = typeof spec.name === 'string' && spec.name !== '' ? spec.name : `metrics[${index}]`;
    try {
      if (typeof spec.name !== 'string' || !METRIC_NAME.test(spec.name))
        throw new Error('name must be a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)');
      const type = spec.type === undefined || spec.type === '' ? 'gauge' : spec.type;
      if (type !== 'gauge' && type !== 'counter' && type !== 'histogram')
        throw new Error(`type must be gauge, counter or histogram, got ${text(type)}`);
      if (typeof spec.value !== 'string' || spec.value.trim() === '')
        throw new Error('value must be an expression');
      const result = evaluateCel(spec.value, variables);
      const value = numberOf(result);
      if (value === undefined) throw new Error(`value is not a number: ${text(result)}`);
      const labels: Record<string, string> = {};
      const labelSpecs = spec.labels === undefined || spec.labels === null ? [] : spec.labels;
      if (!Array.isArray(labelSpecs)) throw new Error('labels must be a list of {name, value | valueExpr}');
      for (const labelRaw of labelSpecs as unknown[]) {
        const entry = (labelRaw && typeof labelRaw === 'object' ? labelRaw : {}) as Record<string, unknown>;
        const name = entry.name;
        if (typeof name !== 'string' || !LABEL_NAME.test(name) || name.startsWith('__'))
          throw new Error(`label name ${text(name) || '(empty)'} is not a Prometheus label name`);
        if (typeof entry.valueExpr === 'string' && entry.valueExpr.trim() !== '') {
          labels[name] = text(evaluateCel(entry.valueExpr, variables));
        } else {
          labels[name] = text(entry.value);
        }
      }
      metrics.push({ name: spec.name, type, value, labels });
    } catch (error) {
      errors.push(`metric ${label}: ${errorText(error)}`);
    }
  });
  return { metrics, errors };
}

type CustomMetric =
  | { type: 'gauge'; labelNames: string[]; metric: Gauge }
  | { type: 'counter'; labelNames: string[]; metric: Counter }
  | { type: 'histogram'; labelNames: string[]; metric: Histogram };

const byRegistry = new WeakMap<Registry, Map<string, CheckMetrics>>();

/**
 * The check metrics of a registry. The HTTP app (Run Now) and the workers share one registry in
 * a process, and so share these metrics; `extraLabels` are check label keys (CHECK_METRIC_LABELS).
 */
export function createCheckMetrics(registry: Registry, extraLabels: readonly string[] = []): CheckMetrics {
  const cacheKey = extraLabels.join(',');
  let cached = byRegistry.get(registry);
  if (!cached) {
    cached = new Map();
    byRegistry.set(registry, cached);
  }
  const existing = cached.get(cacheKey);
  if (existing) return existing;
  if (cached.size > 0)
    throw new Error('check metrics of this registry were created with other CHECK_METRIC_LABELS');

  const extra = extraLabels.map((key) => ({ key, name: metricLabelName(key) }));
  const labelNames = [...BUILT_IN_LABELS, ...extra.map((entry) => entry.name)];
  const status = new Gauge({
    name: 'canary_check',
    help: 'Status of a check at its last run: 0 passing, 1 failing.',
    labelNames,
    registers: [registry],
  });
  const passed = new Counter({
    name: 'canary_check_success_count',
    help: 'Passing runs of a check.',
    labelNames,
    registers: [registry],
  });
  const failed = new Counter({
    name: 'canary_check_failed_count',
    help: 'Failing runs of a check.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'canary_check_duration',
    help: 'Duration of check runs in milliseconds.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const custom = new Map<string, CustomMetric>();
  // The label sets each check has series under (its labels may have changed between runs).
  const seriesOf = new Map<string, Map<string, Record<string, string>>>();

  const customMetric = (metric: CheckMetric, names: string[]): CustomMetric => {
    const known = custom.get(metric.name);
    if (known) {
      if (known.type !== metric.type)
        throw new Error(`${metric.name} is already exported as a ${known.type}, not a ${metric.type}`);
      if (known.labelNames.join(',') !== names.join(','))
        throw new Error(
          `${metric.name} is already exported with labels [${known.labelNames.join(', ')}], not [${names.join(', ')}]`,
        );
      return known;
    }
    if (registry.getSingleMetric(metric.name))
      throw new Error(`${metric.name} is the name of a built-in metric`);
    const help = `Check metric ${metric.name}`;
    const created: CustomMetric =
      metric.type === 'counter'
        ? {
            type: 'counter',
            labelNames: names,
            metric: new Counter({ name: metric.name, help, labelNames: names, registers: [registry] }),
          }
        : metric.type === 'histogram'
          ? {
              type: 'histogram',
              labelNames: names,
              metric: new Histogram({ name: metric.name, help, labelNames: names, registers: [registry] }),
            }
          : {
              type: 'gauge',
              labelNames: names,
              metric: new Gauge({ name: metric.name, help, labelNames: names, registers: [registry] }),
            };
    custom.set(metric.name, created);
    return created;
  };

  const metrics: CheckMetrics = {
    observeResult(check, result) {
      const labels: Record<string, string> = {
        check_id: check.checkId,
        name: check.name,
        type: check.type,
        canary_name: check.canaryName,
        canary_namespace: check.canaryNamespace,
        owner: check.owner ?? '',
        severity: check.severity ?? '',
      };
      for (const entry of extra) labels[entry.name] = check.labels[entry.key] ?? '';
      let series = seriesOf.get(check.checkId);
      if (!series) {
        series = new Map();
        seriesOf.set(check.checkId, series);
      }
      series.set(JSON.stringify(labels), labels);
      status.set(labels, result.pass ? 0 : 1);
      (result.pass ? passed : failed).inc(labels);
      duration.observe(labels, Math.max(0, result.duration));
    },
    exportMetrics(list) {
      const errors: string[] = [];
      for (const metric of list) {
        try {
          if (!METRIC_NAME.test(metric.name)) throw new Error('not a Prometheus metric name');
          const labels = metric.labels ?? {};
          const names = Object.keys(labels).sort();
          for (const name of names) {
            if (!LABEL_NAME.test(name) || name.startsWith('__'))
              throw new Error(`label name ${name} is not a Prometheus label name`);
          }
          if (!Number.isFinite(metric.value)) throw new Error('value is not a number');
          const target = customMetric(metric, names);
          if (target.type === 'gauge') target.metric.set(labels, metric.value);
          else if (target.type === 'counter') {
            if (metric.value < 0) throw new Error('a counter cannot be increased by a negative value');
            target.metric.inc(labels, metric.value);
          } else target.metric.observe(labels, metric.value);
        } catch (error) {
          errors.push(`metric ${metric.name}: ${errorText(error)}`);
        }
      }
      return errors;
    },
    checkIds: () => [...seriesOf.keys()],
    forgetChecks(checkIds) {
      for (const checkId of checkIds) {
        for (const labels of seriesOf.get(checkId)?.values() ?? []) {
          status.remove(labels);
          passed.remove(labels);
          failed.remove(labels);
          duration.remove(labels);
        }
        seriesOf.delete(checkId);
      }
    },
  };
  cached.set(cacheKey, metrics);
  return metrics;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Removes the series of checks that are deleted (soft-deleted, removed from their canary's spec,
 * their canary deleted) or gone: called before /metrics is collected, so whichever way a check
 * was deleted (the editor, a YAML file, the data API, another process) its series disappear.
 * Returns the check ids forgotten.
 */
export async function pruneDeletedCheckMetrics(
  db: { query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }> },
  metrics: CheckMetrics,
): Promise<string[]> {
  const tracked = metrics.checkIds();
  if (tracked.length === 0) return [];
  const gone = tracked.filter((id) => !UUID.test(id));
  const ids = tracked.filter((id) => UUID.test(id));
  if (ids.length > 0) {
    const { rows } = await db.query<{ id: string }>(
      `SELECT t.id::text AS id FROM unnest($1::uuid[]) AS t(id)
        WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.id = t.id AND c.deleted_at IS NULL)`,
      [ids],
    );
    const byLower = new Map(ids.map((id) => [id.toLowerCase(), id]));
    for (const row of rows) gone.push(byLower.get(row.id.toLowerCase()) ?? row.id);
  }
  metrics.forgetChecks(gone);
  return gone;
}
