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
