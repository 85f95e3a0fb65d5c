import { GITOPS_CHARTS, type ChartValuesSchemaResponse, type GitopsChart } from '@opsdeck/contracts';

/**
 * The values JSON Schema of each Add Integration GitOps chart (settings §2.6: "a values editor
 * checked against a schema that is fetched from a public registry"). The registry's copy is
 * fetched from `OPSDECK_CHART_SCHEMA_URL` (`{chart}` is replaced by the chart's folder in
 * flanksource/mission-control-registry); when it cannot be fetched the minimal copy below is
 * used and the answer says so.
 */

/** Where the registry's schemas live; `{chart}` becomes aws, azure, prometheus, flux, kubernetes, mission-control. */
export const DEFAULT_CHART_SCHEMA_URL =
  'https://raw.githubusercontent.com/flanksource/mission-control-registry/main/charts/{chart}/values.schema.json';

export const CHART_SCHEMA_URL_ENV = 'OPSDECK_CHART_SCHEMA_URL';

/** How long a fetched schema is reused, and how long a failed fetch is not retried. */
const CACHE_MS = 10 * 60_000;
const FAILURE_CACHE_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_SCHEMA_BYTES = 1_000_000;

type JsonSchema = Record<string, unknown>;

const str = (description: string): JsonSchema => ({ type: 'string', description });
const labels: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description: 'Labels added to every resource the chart creates',
};
const chartSchema = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { labels, nameOverride: str('Overrides the chart name'), ...properties },
  ...(required.length > 0 ? { required } : {}),
});

/** Minimal copies: the keys every version of the chart has, with their types. */
export const BUNDLED_CHART_SCHEMAS: Record<GitopsChart, JsonSchema> = {
  aws: chartSchema({
    connectionDetails: {
      type: 'object',
      description: 'AWS credentials: a connection name or keys',
      properties: {
        connection: str('An AWS connection (connection://namespace/name)'),
        region: { type: 'array', items: { type: 'string' }, description: 'Regions to scrape' },
      },
    },
    scraper: { type: 'object', properties: { schedule: str('Scrape schedule (cron or @every)') } },
  }),
  azure: chartSchema({
    connectionDetails: {
      type: 'object',
      properties: {
        connection: str('An Azure connection (connection://namespace/name)'),
        subscriptionID: str('The subscription to scrape'),
        tenantID: str('The Azure AD tenant'),
      },
    },
    scraper: { type: 'object', properties: { schedule: str('Scrape schedule (cron or @every)') } },
  }),
  prometheus: chartSchema({
    url: { type: 'string', format: 'uri', description: 'The Prometheus server URL' },
    connection: str('A Prometheus connection instead of the URL'),
  }),
  flux: chartSchema({
    topology: { type: 'object', properties: { enabled: { type: 'boolean' } } },
  }),
  kubernetes: chartSchema({
    clusterName: str('The name the cluster is shown under'),
    scraper: { type: 'object', properties: { schedule: str('Scrape schedule (cron or @every)') } },
  }),
  'mission-control': chartSchema({
    global: {
      type: 'object',
      properties: { ui: { type: 'object', properties: { host: str('The console host name') } } },
    },
    adminPassword: str('The first admin password'),
  }),
};

export interface ChartSchemaSource {
  valuesSchema(chart: GitopsChart): Promise<ChartValuesSchemaResponse>;
}

/** Reads and checks `OPSDECK_CHART_SCHEMA_URL`: an http(s) URL with `{chart}`. */
export function chartSchemaUrlTemplate(env: NodeJS.ProcessEnv = process.env): string {
  const value = env[CHART_SCHEMA_URL_ENV]?.trim() || DEFAULT_CHART_SCHEMA_URL;
  let url: URL;
  try {
    url = new URL(value.replaceAll('{chart}', 'chart'));
  } catch {
    throw new Error(`${CHART_SCHEMA_URL_ENV} must be an http(s) URL containing {chart}`);
  }
  if (!/^https?:$/.test(url.protocol) || !value.includes('{chart}'))
    throw new Error(`${CHART_SCHEMA_URL_ENV} must be an http(s) URL containing {chart}`);
  return value;
}

/** Fetches each chart's schema from the registry at most once per ten minutes, else the bundled one. */
export function createChartSchemaSource(
  urlTemplate: string,
  fetcher: typeof fetch = fetch,
  now: () => number = Date.now,
): ChartSchemaSource {
  const cache = new Map<GitopsChart, { until: number; answer: ChartValuesSchemaResponse }>();

  async function fetchSchema(url: string): Promise<JsonSchema> {
    const response = await fetcher(url, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new Error(`the registry answered ${response.status}`);
    const text = await response.text();
    if (text.length > MAX_SCHEMA_BYTES) throw new Error('the registry answered with more than 1 MB');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error('the registry did not answer with JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new Error('the registry answered with something other than a JSON Schema object');
    return value as JsonSchema;
  }

  return {
    async valuesSchema(chart) {
      if (!GITOPS_CHARTS.includes(chart)) throw new Error(`unknown chart ${String(chart)}`);
      const cached = cache.get(chart);
      if (cached && cached.until > now()) return cached.answer;
      const url = urlTemplate.replaceAll('{chart}', chart);
      let answer: ChartValuesSchemaResponse;
      try {
        answer = { chart, source: 'registry', url, schema: await fetchSchema(url) };
        cache.set(chart, { until: now() + CACHE_MS, answer });
      } catch (error) {
        const reason =
          error instanceof Error && error.name === 'TimeoutError'
            ? 'the registry did not answer within 5 s'
            : error instanceof Error
              ? error.message
              : String(error);
        answer = {
          chart,
          source: 'bundled',
          url,
          problem: `Could not fetch ${url}: ${reason}`,
          schema: BUNDLED_CHART_SCHEMAS[chart],
        };
        cache.set(chart, { until: now() + FAILURE_CACHE_MS, answer });
      }
      return answer;
    },
  };
}
