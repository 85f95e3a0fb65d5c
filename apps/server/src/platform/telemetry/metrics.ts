import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Pool } from '../db/pool.js';

export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  httpRequestsTotal: Counter<'method' | 'route' | 'status_code'>;
}

/** One registry per process (or per test app) with process, HTTP and pool metrics. */
export function createMetrics(pool: Pool): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'opsdeck_' });
  const httpRequestDuration = new Histogram({
    name: 'opsdeck_http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const httpRequestsTotal = new Counter({
    name: 'opsdeck_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'opsdeck_db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  return { registry, httpRequestDuration, httpRequestsTotal };
}

/**
 * Whether a /metrics request may read: anyone when METRICS_TOKEN is unset, else only
 * `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time).
 */
export function metricsCallerAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1] as string), digest(token));
}
