import { expect, type APIRequestContext } from '@playwright/test';
import { csrfHeader } from '../shell/api';

/**
 * How long to wait for what a page loads first after sign-in, a navigation or a reload: the
 * catalog's first query runs cold on a server that other suites keep busy, and may take longer
 * than the default 5 s. Later waits on the same page keep the default.
 */
export const FIRST_LOAD = { timeout: 20_000 } as const;

/** Id of a scraper by name, through the data API. */
export async function scraperId(api: APIRequestContext, name: string): Promise<string> {
  const response = await api.get(
    `/api/db/config_scrapers?select=id&name=eq.${encodeURIComponent(name)}&deleted_at=is.null`,
  );
  expect(response.status(), await response.text()).toBe(200);
  const rows = (await response.json()) as { id: string }[];
  expect(rows, `scraper ${name}`).toHaveLength(1);
  return rows[0]!.id;
}

/** Runs a scraper now and waits for its answer. */
export async function runScraper(api: APIRequestContext, id: string): Promise<void> {
  const response = await api.post(`/api/catalog/scrapers/${id}/run`, { headers: await csrfHeader(api) });
  expect(response.status(), await response.text()).toBe(200);
}

/** Creates a file ScrapeConfig reading one JSON file; returns its id. */
export async function createFileScraper(
  api: APIRequestContext,
  name: string,
  type: string,
  file: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const response = await api.post('/api/db/config_scrapers', {
    headers: { ...(await csrfHeader(api)), Prefer: 'return=representation' },
    data: {
      name,
      namespace: 'e2e',
      spec: { file: [{ type, class: 'E2E', id: '$.name', name: '$.name', ...fields, paths: [file] }] },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const rows = (await response.json()) as { id: string }[];
  return rows[0]!.id;
}

/** Soft-deletes a scraper so the scheduler leaves it alone. */
export async function deleteScraper(api: APIRequestContext, id: string): Promise<void> {
  const response = await api.patch(`/api/db/config_scrapers?id=eq.${id}`, {
    headers: await csrfHeader(api),
    data: { deleted_at: 'now()' },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Ids of the items of one type by name. */
export async function configIds(api: APIRequestContext, type: string): Promise<Record<string, string>> {
  const response = await api.get(`/api/db/configs?select=id,name&type=eq.${encodeURIComponent(type)}`);
  expect(response.status(), await response.text()).toBe(200);
  const rows = (await response.json()) as { id: string; name: string }[];
  return Object.fromEntries(rows.map((row) => [row.name, row.id]));
}
