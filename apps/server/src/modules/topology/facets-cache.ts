/**
 * The dashboard's filter values (types, teams and label values of every live component a caller
 * may read), kept between requests: reading them scans every component, which was most of the
 * topology API's time on a large tree (ADR 0044). Components announce every committed change on
 * `opsdeck_components` (migration 0460); a change drops every entry. While the listening
 * connection is down, notifications could be missed, so nothing is cached then.
 */
import type { Pool } from '../../platform/db/pool.js';
import type { JobsLogger } from '../../platform/jobs/support.js';
import { listenForNotifications } from '../../platform/jobs/notification-listener.js';
import type { ComponentScope } from './row-scope.js';
import type { RowFilter } from '../../data-api/index.js';

export const COMPONENT_CHANGES_CHANNEL = 'opsdeck_components';

/** Entries beyond this (one per distinct row scope) clear the cache: scopes are few in practice. */
const MAX_ENTRIES = 256;

export interface FacetsCacheStats {
  hits: number;
  misses: number;
}

export interface FacetsCache {
  /**
   * The facets of `scope`, from the cache when no component changed since they were read, else
   * from `compute` (one read at a time per scope; callers meanwhile share it).
   */
  read(scope: ComponentScope | null, compute: () => Promise<string>): Promise<string>;
  /** Counters, for tests and the benchmark. */
  readonly stats: FacetsCacheStats;
  close(): Promise<void>;
}

function usesOtherTables(filter: RowFilter): boolean {
  switch (filter.kind) {
    case 'exists':
      return true;
    case 'and':
    case 'or':
      return filter.filters.some(usesOtherTables);
    case 'not':
      return usesOtherTables(filter.filter);
    default:
      return false;
  }
}

/**
 * The cache key of a scope, or null when its facets may change without a change to components
 * (a filter through another table, as a topology's or agent's tags): those are read every time.
 */
function keyOf(scope: ComponentScope | null): string | null {
  if (!scope || scope.filters.length === 0) return '';
  if (scope.filters.some(usesOtherTables)) return null;
  return JSON.stringify(scope.filters);
}

export function createFacetsCache(options: { pool: Pool; logger: JobsLogger }): FacetsCache {
  // Bumped by every notification and every (re)connect; an entry read under an older generation,
  // or a read that a notification overtook, is not used.
  let generation = 0;
  let listening = false;
  const entries = new Map<string, { generation: number; value: Promise<string> }>();
  const stats: FacetsCacheStats = { hits: 0, misses: 0 };
  const listener = listenForNotifications({
    pool: options.pool,
    channel: COMPONENT_CHANGES_CHANNEL,
    logger: options.logger,
    onWake: () => {
      generation += 1;
      listening = true;
      entries.clear();
    },
    onLost: () => {
      listening = false;
      entries.clear();
    },
  });

  return {
    stats,
    async read(scope, compute) {
      const key = keyOf(scope);
      if (key === null || !listening) {
        stats.misses += 1;
        return await compute();
      }
      const cached = entries.get(key);
      if (cached && cached.generation === generation) {
        stats.hits += 1;
        return await cached.value;
      }
      stats.misses += 1;
      const readAt = generation;
      const value = compute();
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { generation: readAt, value });
      try {
        return await value;
      } catch (error) {
        if (entries.get(key)?.value === value) entries.delete(key);
        throw error;
      }
    },
    async close() {
      entries.clear();
      listening = false;
      await listener.close();
    },
  };
}
