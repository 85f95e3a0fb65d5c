import type { LogHistogramBucket, LoggingBackendSpec, LogLine } from '@opsdeck/contracts';
import type { Pool } from '../../../platform/db/pool.js';
import type { OpenedConnection } from '../../resources/index.js';

/** What one search asks of a backend: the range is always set (the service defaults it). */
export interface LogSearch {
  query: string;
  start: Date;
  end: Date;
  limit: number;
  /** Bars of the histogram over the range. */
  buckets: number;
  /** Labels the component's log selector or the backend adds (Loki stream selectors, filters). */
  labels: Record<string, string>;
}

export interface LogSearchResult {
  total: number;
  results: LogLine[];
  /** Every matching line of the range counted per bucket, not only the `limit` returned. */
  histogram: LogHistogramBucket[];
}

export interface LogBackendContext {
  pool: Pool;
  resolveConnection(reference: string): Promise<OpenedConnection | undefined>;
  signal?: AbortSignal;
}

/** One plug-in per backend type, behind one interface (`search(spec, search, ctx)`). */
export interface LogBackend {
  readonly type: keyof LoggingBackendSpec & string;
  search(
    spec: Record<string, unknown>,
    search: LogSearch,
    context: LogBackendContext,
  ): Promise<LogSearchResult>;
}

/**
 * A backend that could not answer for a reason the caller can act on (no permission to read
 * PostgreSQL's log, the remote answered an error): a 4xx/502 with this message, never a 500.
 */
export class LogBackendError extends Error {
  constructor(
    message: string,
    readonly statusCode: number = 502,
  ) {
    super(message);
    this.name = 'LogBackendError';
  }
}
