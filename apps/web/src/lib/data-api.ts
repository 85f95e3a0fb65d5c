import { ApiError, apiFetch } from './api-client';

/** The total of a `Prefer: count=exact` answer, from its Content-Range header ('0-49/1234'). */
export function totalFromContentRange(header: string | null): number | undefined {
  const match = header?.match(/\/(\d+)$/);
  return match ? Number(match[1]) : undefined;
}

export interface CountedRows<T> {
  rows: T[];
  total: number;
}

/** GET on the data API with `Prefer: count=exact`; apiFetch drops headers, so the total needs fetch. */
export async function fetchCounted<T>(path: string, signal: AbortSignal): Promise<CountedRows<T>> {
  const response = await fetch(path, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json', Prefer: 'count=exact' },
    signal,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  if (!response.ok) {
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const message =
      typeof record.error === 'string'
        ? record.error
        : typeof record.message === 'string'
          ? record.message
          : `HTTP ${response.status}`;
    throw new ApiError(response.status, message, body);
  }
  const rows = Array.isArray(body) ? (body as T[]) : [];
  return { rows, total: totalFromContentRange(response.headers.get('content-range')) ?? rows.length };
}

/** Most rows `fetchEveryRow` gathers: a picker or a timeline, not a table (tables page). */
export const EVERY_ROW_LIMIT = 20_000;

/**
 * Every row of a list, although the server caps each response (`DATA_API_MAX_ROWS`, default
 * 1000): reads page after page with `offset` until the counted total is reached, so the list is
 * never silently shortened; a list that fits is one request. A unique `order` (ending with `id`)
 * keeps later pages from skipping or repeating rows. Past EVERY_ROW_LIMIT rows it fails, saying so.
 */
export async function fetchEveryRow<T>(path: string, signal: AbortSignal): Promise<T[]> {
  const rows: T[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (;;) {
    const page = await fetchCounted<T>(
      rows.length === 0 ? path : `${path}${separator}offset=${rows.length}`,
      signal,
    );
    rows.push(...page.rows);
    if (page.rows.length === 0 || rows.length >= page.total) return rows;
    if (rows.length >= EVERY_ROW_LIMIT) {
      throw new ApiError(
        413,
        `The list holds ${page.total} rows, more than the ${EVERY_ROW_LIMIT} shown here`,
        undefined,
      );
    }
  }
}

/** GET on the data API returning rows. */
export const fetchRows = <T>(path: string, signal: AbortSignal): Promise<T[]> =>
  apiFetch<T[]>(path, { signal });

/** Inserts one row and returns it as stored (with its id and defaults). */
export async function insertRow<T>(table: string, row: Record<string, unknown>): Promise<T> {
  const rows = await apiFetch<T[]>(`/api/db/${table}`, {
    method: 'POST',
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify(row),
  });
  const [first] = rows;
  if (!first) throw new ApiError(500, `No ${table} row returned`, rows);
  return first;
}

export async function updateRow(table: string, id: string, changes: Record<string, unknown>): Promise<void> {
  await apiFetch<unknown>(`/api/db/${table}?id=eq.${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: JSON.stringify(changes),
  });
}

export async function deleteRow(table: string, id: string): Promise<void> {
  await apiFetch<unknown>(`/api/db/${table}?id=eq.${encodeURIComponent(id)}`, { method: 'DELETE' });
}
