import { createHash } from 'node:crypto';
import { HEALTH_STATES } from '@opsdeck/contracts';
import { withTransaction, type Pool, type PoolClient } from '../../platform/db/pool.js';
import { enqueueEvents, type EventToEnqueue } from '../../platform/jobs/index.js';
import { evaluate, toJsonValue, type JsonValue } from '../../expressions/index.js';
import { stableHash, stableStringify } from '../../platform/stable-hash.js';
import {
  changeRulesOf,
  extractItems,
  itemVariables,
  resolveLookup,
  type ChangeMapping,
  type ReportedChange,
  type ScrapedItem,
} from './extract.js';
import { jsonPatch, patchSummary, unifiedDiff } from './json-diff.js';
import { applyRetention, parseAge, retentionOf, type RetentionSummary } from './retention.js';
import { planScrape } from './scrapers/registry.js';
import { ScrapeError } from './scrapers/types.js';

/** The config_scrapers columns a run needs. */
export interface ScraperRow {
  id: string;
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
  agent_id: string;
  deleted_at: Date | null;
}

export interface TypeSummary {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
}

/** The "Reconcile Summary" of a run (job history details.summary). */
export interface ReconcileSummary {
  scraped: number;
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  changes_excluded: number;
  analysis: number;
  relationships: number;
  events: number;
  retention: RetentionSummary;
}

export interface ScrapeOutcome {
  /** Per config type (job history details.scrape_summary). */
  scrapeSummary: Record<string, TypeSummary>;
  summary: ReconcileSummary;
}

export interface ScrapeOptions {
  signal?: AbortSignal;
  /** Relative file paths and scripts resolve here. Default process.cwd(). */
  baseDir?: string;
}

export const DIFF_CHANGE_TYPE = 'diff';
/** Why an item that stopped appearing in its source was marked deleted. */
export const MISSING_DELETE_REASON = 'missing from source';
const HEALTH_EVENTS: ReadonlySet<string> = new Set(HEALTH_STATES);

interface ExistingRow {
  id: string;
  external_id: string[] | null;
  type: string;
  config_class: string | null;
  name: string | null;
  namespace: string | null;
  description: string | null;
  status: string | null;
  health: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  properties: JsonValue | null;
  config: JsonValue | null;
  source: string | null;
  parent_id: string | null;
  deleted_at: Date | null;
  last_scraped_time: Date | null;
  locations: string[];
}

interface PlannedItem {
  item: ScrapedItem;
  rules: { mapping: ChangeMapping[]; exclude: string[] };
}

const keyOf = (type: string, externalId: string) => `${type}\u0000${externalId}`;

/** What decides "unchanged": everything the source says about the item. */
function fingerprint(fields: {
  config: JsonValue | null;
  name: string | null;
  namespace: string | null;
  configClass: string | null;
  description: string | null;
  status: string | null;
  health: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  properties: JsonValue | null;
  source: string | null;
  deleted: boolean;
  locations: string[];
}): string {
  return stableHash({
    ...fields,
    labels: fields.labels ?? {},
    tags: fields.tags ?? {},
    locations: [...fields.locations].sort(),
  });
}

function itemFingerprint(item: ScrapedItem): string {
  return fingerprint({
    config: item.config,
    name: item.name,
    namespace: item.namespace,
    configClass: item.configClass,
    description: item.description,
    status: item.status,
    health: item.health,
    labels: item.labels,
    tags: item.tags,
    properties: item.properties,
    source: item.source,
    deleted: item.deletedAt !== null,
    locations: item.locations,
  });
}

function rowFingerprint(row: ExistingRow): string {
  return fingerprint({
    config: row.config,
    name: row.name,
    namespace: row.namespace,
    configClass: row.config_class,
    description: row.description,
    status: row.status,
    health: row.health,
    labels: row.labels,
    tags: row.tags,
    properties: row.properties,
    source: row.source,
    deleted: row.deleted_at !== null,
    locations: row.locations,
  });
}

interface ChangeDecision {
  change: ReportedChange & { patches?: JsonValue; diff?: string };
  deleteItem: boolean;
}

/** Runs transform.changes: exclusions drop a change, a matching mapping renames or drops it. */
async function applyChangeRules(
  change: ReportedChange & { patches?: JsonValue; diff?: string },
  item: ScrapedItem,
  rules: PlannedItem['rules'],
): Promise<ChangeDecision | undefined> {
  const variables = {
    ...change,
    change: change,
    config: item.config,
    item: itemVariables(item),
  };
  for (const expression of rules.exclude) {
    let excluded: JsonValue;
    try {
      excluded = await evaluate({ expr: expression }, variables);
    } catch (error) {
      throw new ScrapeError(`transform.changes.exclude: ${(error as Error).message}`);
    }
    if (excluded === true) return undefined;
  }
  const next = { ...change };
  let deleteItem = false;
  for (const mapping of rules.mapping) {
    let matched: JsonValue;
    try {
      matched = await evaluate({ expr: mapping.filter }, variables);
    } catch (error) {
      throw new ScrapeError(`transform.changes.mapping: ${(error as Error).message}`);
    }
    if (matched !== true) continue;
    if (mapping.action === 'ignore') return undefined;
    if (mapping.action === 'delete') deleteItem = true;
    if (mapping.type) next.change_type = mapping.type;
    if (mapping.severity) next.severity = mapping.severity;
    if (mapping.summary) next.summary = mapping.summary;
    break;
  }
  return { change: next, deleteItem };
}

async function loadExisting(client: PoolClient, scraperId: string): Promise<ExistingRow[]> {
  const { rows } = await client.query<ExistingRow>(
    `SELECT ci.id, ci.external_id, ci.type, ci.config_class, ci.name, ci.namespace, ci.description,
            ci.status, ci.health, ci.labels, ci.tags, ci.properties, ci.config, ci.source, ci.parent_id,
            ci.deleted_at, ci.last_scraped_time,
            coalesce((SELECT array_agg(l.location ORDER BY l.location) FROM config_locations l WHERE l.id = ci.id),
                     '{}') AS locations
     FROM config_items ci WHERE ci.scraper_id = $1`,
    [scraperId],
  );
  return rows;
}

/** Collects every item of every source first: a failing source fails the run before any write. */
async function collect(scraper: ScraperRow, options: ScrapeOptions): Promise<PlannedItem[]> {
  const planned = planScrape(scraper.spec);
  const signal = options.signal ?? new AbortController().signal;
  const baseDir = options.baseDir ?? process.cwd();
  const byKey = new Map<string, PlannedItem>();
  for (const { scraper: source, entry, label } of planned) {
    signal.throwIfAborted();
    let raw;
    try {
      raw = await source.scrape(entry, { signal, baseDir });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ScrapeError(`${label}: ${message}`);
    }
    const rules = changeRulesOf(entry);
    for (const item of await extractItems(entry, raw, label)) {
      byKey.set(keyOf(item.type, item.externalId), { item, rules });
    }
  }
  return [...byKey.values()];
}

function emptyTypeSummary(): TypeSummary {
  return { added: 0, updated: 0, unchanged: 0, deleted: 0, changes: 0 };
}

/**
 * One scrape of a scraper: reads every source, then in one transaction upserts items by
 * external id (rows whose fingerprint is unchanged only get last_scraped_time), records a
 * `diff` change (RFC 6902 patch + unified diff) for each changed document, records reported
 * changes and insights, marks items gone from the source deleted, links relationships, applies
 * retention and enqueues config events. A source failure throws before anything is written.
 */
export async function runScrape(
  pool: Pool,
  scraper: ScraperRow,
  options: ScrapeOptions = {},
): Promise<ScrapeOutcome> {
  const items = await collect(scraper, options);
  const retention = retentionOf(scraper.spec);
  const staleAfterMs = retention.staleItemAge ? parseAge(retention.staleItemAge) : undefined;
  return withTransaction(pool, async (client) => {
    // Two runs of one scraper (a tick and a Run Now) would race on the same rows.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`config_scraper:${scraper.id}`]);
    const scrapeSummary: Record<string, TypeSummary> = {};
    const summary: ReconcileSummary = {
      scraped: items.length,
      added: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      changes: 0,
      changes_excluded: 0,
      analysis: 0,
      relationships: 0,
      events: 0,
      retention: { changes_deleted: 0, items_marked_deleted: 0, items_removed: 0 },
    };
    const forType = (type: string) => (scrapeSummary[type] ??= emptyTypeSummary());
    const events: EventToEnqueue[] = [];
    const existing = await loadExisting(client, scraper.id);
    const byKey = new Map<string, ExistingRow>();
    for (const row of existing) {
      const externalId = row.external_id?.[0];
      if (externalId) byKey.set(keyOf(row.type, externalId), row);
    }
    const ids = new Map<PlannedItem, string>();
    const unchangedIds: string[] = [];
    const seen = new Set<string>();
    const deleteRequested = new Set<string>();

    const recordChange = async (
      configId: string,
      planned: PlannedItem,
      change: ReportedChange & { patches?: JsonValue; diff?: string },
    ): Promise<void> => {
      const decision = await applyChangeRules(change, planned.item, planned.rules);
      if (!decision) {
        summary.changes_excluded += 1;
        return;
      }
      if (decision.deleteItem) deleteRequested.add(configId);
      const recorded = decision.change;
      const externalChangeId =
        recorded.external_change_id ??
        (recorded.change_type === DIFF_CHANGE_TYPE && recorded.patches !== undefined
          ? undefined
          : createHash('sha256').update(stableStringify(recorded)).digest('hex'));
      const result = await client.query(
        `INSERT INTO config_changes (config_id, external_change_id, external_created_by, change_type,
                                     severity, source, summary, diff, details, patches, first_observed, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::jsonb, coalesce($11::timestamptz, now()),
                 coalesce($11::timestamptz, now()))
         ON CONFLICT (config_id, external_change_id) WHERE external_change_id IS NOT NULL
         DO UPDATE SET summary = EXCLUDED.summary, severity = EXCLUDED.severity, details = EXCLUDED.details
         RETURNING (xmax = 0) AS inserted`,
        [
          configId,
          externalChangeId ?? null,
          recorded.external_created_by ?? null,
          recorded.change_type,
          recorded.severity ?? 'info',
          recorded.source ?? `${scraper.namespace}/${scraper.name}`,
          recorded.summary ?? null,
          recorded.diff ?? null,
          recorded.details === undefined ? null : JSON.stringify(recorded.details),
          recorded.patches === undefined ? null : JSON.stringify(recorded.patches),
          recorded.created_at ?? null,
        ],
      );
      if ((result.rows[0] as { inserted: boolean } | undefined)?.inserted) {
        summary.changes += 1;
        forType(planned.item.type).changes += 1;
      }
    };

    for (const planned of items) {
      const { item } = planned;
      const key = keyOf(item.type, item.externalId);
      seen.add(key);
      const row = byKey.get(key);
      const values = [
        item.type,
        item.configClass,
        item.name,
        item.namespace,
        item.description,
        item.status,
        item.health,
        JSON.stringify(item.labels),
        JSON.stringify(item.tags),
        item.properties === null ? null : JSON.stringify(item.properties),
        JSON.stringify(item.config),
        item.source,
        item.deletedAt,
      ];
      if (!row) {
        const { rows } = await client.query<{ id: string }>(
          `INSERT INTO config_items (scraper_id, agent_id, external_id, type, config_class, name, namespace,
                                     description, status, health, labels, tags, properties, config, source,
                                     deleted_at, created_at, last_scraped_time)
           VALUES ($14, $15, ARRAY[$16::text], $1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb,
                   $11::jsonb, $12, $13, coalesce($17::timestamptz, now()), now())
           RETURNING id`,
          [...values, scraper.id, scraper.agent_id, item.externalId, item.createdAt],
        );
        ids.set(planned, rows[0].id);
        summary.added += 1;
        forType(item.type).added += 1;
        events.push({ name: 'config.created', properties: { id: rows[0].id } });
        if (
          item.deletedAt === null &&
          item.health &&
          HEALTH_EVENTS.has(item.health) &&
          item.health !== 'healthy'
        ) {
          events.push({ name: `config.${item.health}`, properties: { id: rows[0].id, health: item.health } });
        }
        await writeLocations(client, rows[0].id, item.locations);
        for (const change of item.changes) await recordChange(rows[0].id, planned, change);
        continue;
      }
      ids.set(planned, row.id);
      if (rowFingerprint(row) === itemFingerprint(item)) {
        unchangedIds.push(row.id);
        summary.unchanged += 1;
        forType(item.type).unchanged += 1;
        for (const change of item.changes) await recordChange(row.id, planned, change);
        continue;
      }
      await client.query(
        `UPDATE config_items
         SET type = $1, config_class = $2, name = $3, namespace = $4, description = $5, status = $6,
             health = $7, labels = $8::jsonb, tags = $9::jsonb, properties = $10::jsonb, config = $11::jsonb,
             source = $12, deleted_at = $13, delete_reason = NULL, last_scraped_time = now()
         WHERE id = $14`,
        [...values, row.id],
      );
      summary.updated += 1;
      forType(item.type).updated += 1;
      await writeLocations(client, row.id, item.locations);
      const patches = jsonPatch(row.config, item.config);
      if (patches.length > 0) {
        await recordChange(row.id, planned, {
          change_type: DIFF_CHANGE_TYPE,
          severity: 'info',
          summary: patchSummary(patches),
          patches: toJsonValue(patches),
          diff: unifiedDiff(row.config, item.config),
        });
        events.push({ name: 'config.updated', properties: { id: row.id } });
      }
      for (const change of item.changes) await recordChange(row.id, planned, change);
      if (row.deleted_at === null && item.deletedAt !== null) {
        events.push({ name: 'config.deleted', properties: { id: row.id } });
      }
      if (item.health !== row.health && item.health && HEALTH_EVENTS.has(item.health)) {
        events.push({
          name: `config.${item.health}`,
          properties: { id: row.id, health: item.health, previous_health: row.health },
        });
      }
      if (item.status !== row.status) {
        events.push({
          name: 'config.status_updated',
          properties: { id: row.id, status: item.status, previous_status: row.status },
        });
      }
    }

    if (unchangedIds.length > 0) {
      // Stale-item detection reads last_scraped_time; the hash check skipped the full write.
      // set_updated_at() bumps updated_at unless it is set explicitly, and updatedAge retention
      // reads updated_at as "last changed": a 1 µs nudge counts as explicit and keeps it.
      await client.query(
        `UPDATE config_items SET last_scraped_time = now(), updated_at = updated_at + interval '1 microsecond'
         WHERE id = ANY($1::uuid[])`,
        [unchangedIds],
      );
    }

    // Analysis reported by sources and transforms.
    for (const planned of items) {
      const configId = ids.get(planned) as string;
      for (const finding of planned.item.analysis) {
        await client.query(
          `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, status,
                                        summary, message, analysis, source, first_observed, last_observed)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, now(), now())
           ON CONFLICT (config_id, analyzer) DO UPDATE
           SET analysis_type = EXCLUDED.analysis_type, severity = EXCLUDED.severity, status = EXCLUDED.status,
               summary = EXCLUDED.summary, message = EXCLUDED.message, analysis = EXCLUDED.analysis,
               source = EXCLUDED.source, last_observed = now()`,
          [
            configId,
            scraper.id,
            finding.analyzer,
            finding.analysis_type ?? null,
            finding.severity ?? null,
            finding.status ?? 'open',
            finding.summary ?? null,
            finding.message ?? null,
            finding.analysis === undefined ? null : JSON.stringify(finding.analysis),
            finding.source ?? `${scraper.namespace}/${scraper.name}`,
          ],
        );
        summary.analysis += 1;
      }
    }

    // Items that disappeared from the source.
    for (const row of existing) {
      const externalId = row.external_id?.[0];
      if (!externalId || row.deleted_at !== null || seen.has(keyOf(row.type, externalId))) continue;
      if (
        staleAfterMs !== undefined &&
        row.last_scraped_time &&
        Date.now() - row.last_scraped_time.getTime() < staleAfterMs
      ) {
        continue;
      }
      await client.query(`UPDATE config_items SET deleted_at = now(), delete_reason = $2 WHERE id = $1`, [
        row.id,
        MISSING_DELETE_REASON,
      ]);
      summary.deleted += 1;
      forType(row.type).deleted += 1;
      events.push({ name: 'config.deleted', properties: { id: row.id } });
    }
    for (const id of deleteRequested) {
      const result = await client.query(
        `UPDATE config_items SET deleted_at = now(), delete_reason = 'change' WHERE id = $1 AND deleted_at IS NULL`,
        [id],
      );
      if ((result.rowCount ?? 0) > 0) {
        summary.deleted += 1;
        events.push({ name: 'config.deleted', properties: { id } });
      }
    }

    summary.relationships = await linkRelationships(client, scraper.id, items, ids);
    summary.retention = await applyRetention(client, scraper.id, retention);
    summary.events = events.length;
    await enqueueEvents(client, events);
    return { scrapeSummary, summary };
  });
}

async function writeLocations(client: PoolClient, id: string, locations: string[]): Promise<void> {
  await client.query('DELETE FROM config_locations WHERE id = $1 AND NOT (location = ANY($2::text[]))', [
    id,
    locations,
  ]);
  if (locations.length > 0) {
    await client.query(
      `INSERT INTO config_locations (id, location) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [id, locations],
    );
  }
}

/**
 * Parents named by items (parent_id and path) and edges from transform.relationship rules.
 * Edges carry selector_id `config_scraper:<id>` so a rescan retracts those it no longer finds.
 */
async function linkRelationships(
  client: PoolClient,
  scraperId: string,
  items: PlannedItem[],
  ids: Map<PlannedItem, string>,
): Promise<number> {
  const selector = `config_scraper:${scraperId}`;
  const edges = new Map<string, { from: string; to: string; relation: string }>();
  const find = async (filters: {
    externalId?: string | null;
    type?: string | null;
    name?: string | null;
    namespace?: string | null;
  }): Promise<Array<{ id: string; path: string | null }>> => {
    const { rows } = await client.query<{ id: string; path: string | null }>(
      `SELECT id, path FROM config_items
       WHERE deleted_at IS NULL
         AND ($1::text IS NULL OR $1 = ANY(external_id))
         AND ($2::text IS NULL OR type = $2)
         AND ($3::text IS NULL OR name = $3)
         AND ($4::text IS NULL OR namespace = $4)
       ORDER BY (scraper_id = $5) DESC NULLS LAST, created_at
       LIMIT 100`,
      [
        filters.externalId ?? null,
        filters.type ?? null,
        filters.name ?? null,
        filters.namespace ?? null,
        scraperId,
      ],
    );
    return rows;
  };
  for (const planned of items) {
    const id = ids.get(planned) as string;
    const { item } = planned;
    let parentId: string | null = null;
    let parentPath: string | null = null;
    for (const reference of item.parents) {
      const [parent] = await find({ externalId: reference.external_id, type: reference.type ?? null });
      if (parent && parent.id !== id) {
        parentId = parent.id;
        parentPath = parent.path ? `${parent.path}.${parent.id}` : parent.id;
        break;
      }
    }
    for (const rule of item.relationshipRules) {
      if (rule.filter) {
        const matched = await evaluate(
          { expr: rule.filter },
          { ...itemVariables(item), item: itemVariables(item) },
        );
        if (matched !== true) continue;
      }
      const filters = {
        externalId: await resolveLookup(rule.external_id ?? rule.id, item),
        type: await resolveLookup(rule.type, item),
        name: await resolveLookup(rule.name, item),
        namespace: await resolveLookup(rule.namespace, item),
      };
      if (!filters.externalId && !filters.name) continue;
      for (const target of await find(filters)) {
        if (target.id === id) continue;
        if (rule.parent) {
          parentId ??= target.id;
          parentPath ??= target.path ? `${target.path}.${target.id}` : target.id;
          edges.set(`${target.id}/${id}/hard`, {
            from: target.id,
            to: id,
            relation: rule.relation ?? 'hard',
          });
        } else {
          const relation = rule.relation ?? 'soft';
          edges.set(`${id}/${target.id}/${relation}`, { from: id, to: target.id, relation });
        }
      }
    }
    if (parentId !== null || item.parents.length > 0) {
      await client.query(
        `UPDATE config_items SET parent_id = $2, path = $3 WHERE id = $1
         AND (parent_id IS DISTINCT FROM $2 OR path IS DISTINCT FROM $3)`,
        [id, parentId, parentPath],
      );
    }
  }
  const list = [...edges.values()];
  await client.query(
    `DELETE FROM config_relationships r
     WHERE r.selector_id = $1
       AND NOT EXISTS (SELECT 1 FROM unnest($2::uuid[], $3::uuid[], $4::text[]) AS e(f, t, rel)
                       WHERE e.f = r.config_id AND e.t = r.related_id AND e.rel = r.relation)`,
    [selector, list.map((edge) => edge.from), list.map((edge) => edge.to), list.map((edge) => edge.relation)],
  );
  if (list.length > 0) {
    await client.query(
      `INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[])
       ON CONFLICT (config_id, related_id, relation) DO UPDATE SET selector_id = EXCLUDED.selector_id, deleted_at = NULL`,
      [
        list.map((edge) => edge.from),
        list.map((edge) => edge.to),
        list.map((edge) => edge.relation),
        list.map(() => selector),
      ],
    );
  }
  return list.length + items.filter((planned) => planned.item.parents.length > 0).length;
}
