import type { Pool } from '../../platform/db/pool.js';
import { findResourceKind, resourceRowIssues, sealRowSecrets } from '../resources/index.js';
import { maskSealedStrings } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import { HttpError } from '../../platform/http/errors.js';
import { isUuid } from './catalog-request.js';
import type { SpecIssue } from './spec-validation.js';

/** A spec refused on save: a 400 whose `field` is the first problem's, every problem listed as `issues`. */
export function scrapeConfigInvalid(issues: SpecIssue[]): HttpError {
  return new HttpError(400, `${issues[0].path}: ${issues[0].message}`, issues[0].path, { issues });
}

export interface SavedScraper {
  id: string;
  name: string;
  namespace: string;
  schedule: string | null;
  spec: Record<string, unknown>;
  source: string;
  updated_at: string;
}

const RETURNING = 'id, name, namespace, schedule, spec, source, updated_at';

/**
 * The saved row as answered: secret-shaped spec values masked. Only the spec is walked: masking
 * the whole row turned `updated_at` (a Date, not a plain object) into `{}`.
 */
function savedView(row: SavedScraper): SavedScraper {
  return { ...row, spec: maskSealedStrings(row.spec) as Record<string, unknown> };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Checks a ScrapeConfig spec as apply does (the kind's schema: schedule presets, retention) and
 * then every JSONPath and expression of the scrapers it names; returns the schedule column.
 */
export function validateScrapeConfigSpec(spec: unknown): { schedule: string | null } {
  if (!isRecord(spec)) throw scrapeConfigInvalid([{ path: 'spec', message: 'must be a mapping' }]);
  const kind = findResourceKind('scrapeconfig');
  if (!kind) throw new Error('the ScrapeConfig resource kind is not registered');
  // The same checks as apply and data-API writes: the kind's schema, then its specIssues.
  const issues = resourceRowIssues(kind.table, { spec });
  if (issues.length > 0) throw scrapeConfigInvalid(issues);
  const columns = kind.columns(kind.spec.parse(spec));
  return { schedule: typeof columns.schedule === 'string' ? columns.schedule : null };
}

/** The spec as stored: its secret-shaped fields sealed when a key is configured. */
function sealedSpec(spec: unknown, secrets: SecretBox | undefined): unknown {
  return secrets ? sealRowSecrets('config_scrapers', { spec }, secrets).spec : spec;
}

function labelsOf(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value) || Object.values(value).some((item) => typeof item !== 'string'))
    throw scrapeConfigInvalid([{ path: 'labels', message: 'must be a JSON object of strings' }]);
  return value as Record<string, string>;
}

/** Saves the editor's spec (and labels) of a live scraper; name, namespace and source stay. */
export async function updateScraper(
  pool: Pool,
  id: string,
  input: { spec?: unknown; labels?: unknown },
  secrets?: SecretBox,
): Promise<SavedScraper> {
  if (!isUuid(id)) throw new HttpError(404, 'Scraper not found');
  const { schedule } = validateScrapeConfigSpec(input.spec);
  const labels = labelsOf(input.labels);
  const { rows } = await pool.query<SavedScraper>(
    `UPDATE config_scrapers
        SET spec = $2::jsonb, schedule = $3, labels = coalesce($4::jsonb, labels), updated_at = now()
      WHERE id = $1 AND deleted_at IS NULL
      RETURNING ${RETURNING}`,
    [id, JSON.stringify(sealedSpec(input.spec, secrets)), schedule, labels ? JSON.stringify(labels) : null],
  );
  if (!rows[0]) throw new HttpError(404, 'Scraper not found');
  return savedView(rows[0]);
}

/** Creates a scraper from the editor (source 'UI'); a live one with the same name is a 409. */
export async function createScraper(
  pool: Pool,
  input: { name?: unknown; namespace?: unknown; spec?: unknown; labels?: unknown },
  createdBy: string | undefined,
  secrets?: SecretBox,
): Promise<SavedScraper> {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw scrapeConfigInvalid([{ path: 'name', message: 'This field is required' }]);
  const namespace =
    typeof input.namespace === 'string' && input.namespace.trim() ? input.namespace.trim() : 'default';
  const { schedule } = validateScrapeConfigSpec(input.spec);
  const labels = labelsOf(input.labels) ?? {};
  try {
    const { rows } = await pool.query<SavedScraper>(
      `INSERT INTO config_scrapers (name, namespace, spec, schedule, labels, source, created_by)
       VALUES ($1, $2, $3::jsonb, $4, $5::jsonb, 'UI', $6)
       RETURNING ${RETURNING}`,
      [
        name,
        namespace,
        JSON.stringify(sealedSpec(input.spec, secrets)),
        schedule,
        JSON.stringify(labels),
        createdBy ?? null,
      ],
    );
    return savedView(rows[0]);
  } catch (error) {
    if ((error as { code?: string }).code === '23505')
      throw new HttpError(409, `A scraper named ${namespace}/${name} already exists`);
    throw error;
  }
}
