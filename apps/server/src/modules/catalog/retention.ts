import type { PoolClient } from '../../platform/db/pool.js';
import { parseDuration } from '../../platform/time/index.js';

/**
 * Whole milliseconds of a retention age as the ecosystem writes it (`7d`, `1h30m`): the one
 * duration grammar (`platform/time`). Throws `TimeParseError`.
 */
export function parseAge(text: string): number {
  return Math.round(parseDuration(text));
}

export interface ChangeRetention {
  name: string;
  age?: string;
  count?: number;
}

export interface TypeRetention {
  name: string;
  createdAge?: string;
  updatedAge?: string;
  deletedAge?: string;
}

export interface RetentionSpec {
  changes?: ChangeRetention[];
  types?: TypeRetention[];
  staleItemAge?: string;
}

export interface RetentionSummary {
  changes_deleted: number;
  items_marked_deleted: number;
  items_removed: number;
}

function listOf<T extends { name: string }>(value: unknown): T[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is T =>
      !!item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string',
  );
}

export function retentionOf(spec: Record<string, unknown>): RetentionSpec {
  const retention = spec.retention;
  if (!retention || typeof retention !== 'object') return {};
  const record = retention as Record<string, unknown>;
  return {
    changes: listOf<ChangeRetention>(record.changes),
    types: listOf<TypeRetention>(record.types ?? record.type),
    staleItemAge: typeof record.staleItemAge === 'string' ? record.staleItemAge : undefined,
  };
}

/**
 * Applies a scraper's retention to its own items: changes by change type older than `age` or
 * beyond the newest `count` per item; items of a type not updated (updatedAge) or created
 * (createdAge) within the age are marked deleted, and deleted ones older than deletedAge are
 * removed with their changes, insights and relationships.
 */
export async function applyRetention(
  client: PoolClient,
  scraperId: string,
  retention: RetentionSpec,
): Promise<RetentionSummary> {
  const summary: RetentionSummary = { changes_deleted: 0, items_marked_deleted: 0, items_removed: 0 };
  for (const rule of retention.changes ?? []) {
    if (rule.age) {
      const result = await client.query(
        `DELETE FROM config_changes c USING config_items i
         WHERE c.config_id = i.id AND i.scraper_id = $1 AND c.change_type = $2
           AND c.created_at < now() - $3 * interval '1 millisecond'`,
        [scraperId, rule.name, parseAge(rule.age)],
      );
      summary.changes_deleted += result.rowCount ?? 0;
    }
    if (typeof rule.count === 'number' && rule.count >= 0) {
      const result = await client.query(
        `DELETE FROM config_changes WHERE id IN (
           SELECT id FROM (
             SELECT c.id, row_number() OVER (PARTITION BY c.config_id ORDER BY c.created_at DESC, c.id DESC) AS rank
             FROM config_changes c JOIN config_items i ON i.id = c.config_id
             WHERE i.scraper_id = $1 AND c.change_type = $2
           ) ranked WHERE ranked.rank > $3)`,
        [scraperId, rule.name, rule.count],
      );
      summary.changes_deleted += result.rowCount ?? 0;
    }
  }
  for (const rule of retention.types ?? []) {
    for (const [column, age] of [
      ['updated_at', rule.updatedAge],
      ['created_at', rule.createdAge],
    ] as const) {
      if (!age) continue;
      const result = await client.query(
        `UPDATE config_items SET deleted_at = now(), delete_reason = 'retention'
         WHERE scraper_id = $1 AND type = $2 AND deleted_at IS NULL
           AND ${column} < now() - $3 * interval '1 millisecond'`,
        [scraperId, rule.name, parseAge(age)],
      );
      summary.items_marked_deleted += result.rowCount ?? 0;
    }
    if (rule.deletedAge) {
      const result = await client.query(
        `DELETE FROM config_items
         WHERE scraper_id = $1 AND type = $2 AND deleted_at < now() - $3 * interval '1 millisecond'`,
        [scraperId, rule.name, parseAge(rule.deletedAge)],
      );
      summary.items_removed += result.rowCount ?? 0;
    }
  }
  return summary;
}
