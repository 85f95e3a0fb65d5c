import { z } from 'zod';
import type { JsonValue } from '../../../expressions/index.js';
import { elapsedSince, failing, invalidResult, passing } from './check-result.js';
import { apiUrl, ApiCallError, callJsonApi } from './http-api.js';
import {
  baseSpecShape,
  connectionShape,
  parseSpec,
  resolveConnectionDetails,
  sanitizeUrl,
  textField,
} from './spec-fields.js';
import type { CheckContext, CheckResult, CheckType } from './types.js';

const labelMapField = z.record(z.string(), textField);

const alertmanagerSpecSchema = z
  .looseObject({
    ...baseSpecShape,
    ...connectionShape,
    /** Alert names (regular expressions) to include. */
    alerts: z.array(textField).optional(),
    /** Label → regular expression an alert must match. */
    filters: labelMapField.optional(),
    /** Label → value an alert must not have (the ecosystem's snake_case key). */
    exclude_filters: labelMapField.optional(),
    excludeFilters: labelMapField.optional(),
    /** Alert names (regular expressions) to leave out. */
    ignore: z.array(textField).optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.url === undefined && spec.connection === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'a url or a connection is required' });
    }
    const patterns: Array<[PropertyKey[], string]> = [
      ...(spec.alerts ?? []).map((pattern, index): [PropertyKey[], string] => [['alerts', index], pattern]),
      ...(spec.ignore ?? []).map((pattern, index): [PropertyKey[], string] => [['ignore', index], pattern]),
      ...Object.entries(spec.filters ?? {}).map(([label, pattern]): [PropertyKey[], string] => [
        ['filters', label],
        pattern,
      ]),
    ];
    for (const [path, pattern] of patterns) {
      try {
        new RegExp(pattern);
      } catch (error) {
        ctx.addIssue({
          code: 'custom',
          path,
          message: `invalid regular expression "${pattern}": ${(error as Error).message}`,
        });
      }
    }
  });

export type AlertmanagerCheckSpec = z.infer<typeof alertmanagerSpecSchema>;

interface GettableAlert {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  fingerprint?: string;
  startsAt?: string;
  endsAt?: string;
  updatedAt?: string;
  generatorURL?: string;
  status?: { state?: string; silencedBy?: string[]; inhibitedBy?: string[] };
  receivers?: Array<{ name?: string }>;
}

/** A label value in an Alertmanager matcher, quoted and escaped. */
function quoted(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;
}

/** The matchers sent as `filter` (the ecosystem's semantics: alerts and filters are regexes). */
export function alertmanagerMatchers(spec: AlertmanagerCheckSpec): string[] {
  const matchers: string[] = [];
  for (const [label, pattern] of Object.entries(spec.filters ?? {}))
    matchers.push(`${label}=~${quoted(pattern)}`);
  // Several names are alternatives: one matcher per label, or no alert could match them all.
  const names = (spec.alerts ?? []).filter((name) => name !== '');
  if (names.length > 0) matchers.push(`alertname=~${quoted(names.map((name) => `(?:${name})`).join('|'))}`);
  for (const name of spec.ignore ?? []) if (name !== '') matchers.push(`alertname!~${quoted(name)}`);
  const excluded = { ...spec.excludeFilters, ...spec.exclude_filters };
  for (const [label, value] of Object.entries(excluded)) matchers.push(`${label}!=${quoted(value)}`);
  return matchers;
}

const MESSAGE_ANNOTATIONS = ['message', 'description', 'summary'];
const PLACEMENT_LABELS = ['namespace', 'node'];
const WORKLOAD_LABELS = [
  'deployment',
  'daemonset',
  'statefulset',
  'cronjob_name',
  'job_name',
  'pod',
  'nodename',
];

/** `KubePodCrashLooping/prod/api-7d9/app`: the alert name with where it fires. */
function alertDisplayName(labels: Record<string, string>): string {
  const parts = [labels.alertname ?? ''];
  for (const key of PLACEMENT_LABELS) if (labels[key]) parts.push(labels[key]);
  const workload = WORKLOAD_LABELS.find((key) => labels[key]);
  if (workload) parts.push(labels[workload]);
  if (labels.container && labels.container !== labels.job) parts.push(labels.container);
  return parts.join('/');
}

function alertMessage(annotations: Record<string, string>): string {
  for (const key of MESSAGE_ANNOTATIONS) if (annotations[key] !== undefined) return annotations[key];
  return '';
}

async function runAlertmanagerCheck(spec: AlertmanagerCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const details = await resolveConnectionDetails(spec, ctx);
  if (details.url === '') return invalidResult('no url or connection specified');
  let base: URL;
  try {
    base = new URL(details.url);
  } catch {
    return invalidResult(`invalid url '${sanitizeUrl(details.url)}'`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    return invalidResult(`invalid url, the scheme must be http or https '${sanitizeUrl(details.url)}'`);
  }
  const matchers = alertmanagerMatchers(spec);
  const url = apiUrl(base.toString(), '/api/v2/alerts');
  for (const matcher of matchers) url.searchParams.append('filter', matcher);
  const credentials = {
    username: details.username || decodeURIComponent(base.username),
    password: details.password || decodeURIComponent(base.password),
  };
  const started = performance.now();
  let status: number;
  let body: unknown;
  let text: string;
  try {
    ({ status, body, text } = await callJsonApi(url, ctx, credentials));
  } catch (error) {
    if (error instanceof ApiCallError)
      return failing(
        passing({ duration: elapsedSince(started) }),
        `error fetching from alertmanager: ${error.message}`,
      );
    throw error;
  }
  const duration = elapsedSince(started);
  if (status !== 200 || !Array.isArray(body)) {
    const reason = typeof body === 'string' ? body : text.trim().slice(0, 300);
    return failing(
      passing({ duration, detail: { filters: matchers, status } }),
      `error fetching from alertmanager: ${status} ${reason}`.trim(),
    );
  }
  const alerts = (body as GettableAlert[]).map((alert): Record<string, JsonValue> => {
    const labels = alert.labels ?? {};
    const annotations = alert.annotations ?? {};
    return {
      name: alertDisplayName(labels),
      message: alertMessage(annotations),
      labels,
      annotations,
      fingerprint: alert.fingerprint ?? '',
      state: alert.status?.state ?? '',
      startsAt: alert.startsAt ?? '',
      endsAt: alert.endsAt ?? '',
      generatorURL: alert.generatorURL ?? '',
    };
  });
  const results = { alerts };
  return passing({
    duration,
    data: { results, alerts, count: alerts.length },
    detail: { ...results, filters: matchers },
    empty: alerts.length === 0,
  });
}

export const alertmanagerCheck: CheckType<AlertmanagerCheckSpec> = {
  type: 'alertmanager',
  specKey: 'alertmanager',
  schema: alertmanagerSpecSchema,
  parse: (raw) => parseSpec(alertmanagerSpecSchema, raw, 'alertmanager'),
  endpoint: (spec) => sanitizeUrl(spec.url ?? spec.connection ?? ''),
  run: runAlertmanagerCheck,
};
