import { ApiError, apiFetch, parseResponse, type ResponseSchema } from './api-client';

/**
 * Row shapes come from one place: the relation's row schema in `@opsdeck/contracts`
 * (`relationRowSchemas`, or a `.pick()` of it for a narrower select). Pass it and the rows are
 * parsed (unknown keys dropped, a drifted column rejected with ApiResponseError); without one
 * the rows are returned as sent.
 */
type RowSchema<T> = ResponseSchema<T>;

function parseRows<T>(path: string, body: unknown, schema: ResponseSchema<T> | undefined): T[] {
  const rows = Array.isArray(body) ? body : [];
  if (!schema) return rows as T[];
  return parseResponse(path, rows, arrayOf(schema));
}

/** A ResponseSchema of a list from the schema of one element (keeps the element's index in issue paths). */
function arrayOf<T>(schema: ResponseSchema<T>): ResponseSchema<T[]> {
  return {
    safeParse(data: unknown) {
      const list = Array.isArray(data) ? data : [];
      const out: T[] = [];
      const issues: { path: readonly PropertyKey[]; message: string }[] = [];
      list.forEach((item, index) => {
        const parsed = schema.safeParse(item);
        if (parsed.success) out.push(parsed.data);
        else for (const issue of parsed.error.issues) issues.push({ ...issue, path: [index, ...issue.path] });
      });
      if (!Array.isArray(data)) issues.push({ path: [], message: 'expected a list of rows' });
      return issues.length ? { success: false, error: { issues } } : { success: true, data: out };
    },
  };
}

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
export async function fetchCounted<T>(
  path: string,
  signal: AbortSignal,
  schema?: RowSchema<T>,
): Promise<CountedRows<T>> {
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
  const rows = parseRows(path, body, schema);
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
export async function fetchEveryRow<T>(path: string, signal: AbortSignal, schema?: RowSchema<T>): Promise<T[]> {
  const rows: T[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (;;) {
    const page = await fetchCounted<T>(
      rows.length === 0 ? path : `${path}${separator}offset=${rows.length}`,
      signal,
      schema,
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
export const fetchRows = async <T>(path: string, signal: AbortSignal, schema?: RowSchema<T>): Promise<T[]> =>
  schema ? parseRows(path, await apiFetch<unknown>(path, { signal }), schema) : apiFetch<T[]>(path, { signal });

/** Inserts one row and returns it as stored (with its id and defaults). */
export async function insertRow<T>(
  table: string,
  row: Record<string, unknown>,
  schema?: RowSchema<T>,
): Promise<T> {
  const path = `/api/db/${table}`;
  const body = await apiFetch<unknown>(path, {
    method: 'POST',
    headers: { Prefer: 'return=representation' },
    body: JSON.stringify(row),
  });
  const rows = parseRows(path, body, schema);
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
