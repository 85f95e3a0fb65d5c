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
