import type { PlaybookParameter } from '@opsdeck/contracts';
import { renderTemplate } from '../../expressions/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { matchesSelector, type SelectableResource } from '../incidents/index.js';

/** Labels as stored (jsonb): string values kept, scalars stringified. */
function labelsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const labels: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (entry !== null && typeof entry !== 'object') labels[key] = String(entry);
  }
  return labels;
}

export interface PlaybookRecord {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  description: string | null;
  spec: Record<string, unknown>;
}

export interface RunTarget {
  config_id?: string;
  component_id?: string;
  check_id?: string;
}

export type TargetKind = 'configs' | 'components' | 'checks';

export async function loadPlaybook(pool: Pool, id: string): Promise<PlaybookRecord | undefined> {
  const { rows } = await pool.query<PlaybookRecord>(
    `SELECT id, name, namespace, title, description, spec FROM playbooks WHERE id = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0];
}

/** The one resource of a request, or undefined; several is the caller's error. */
export function targetOf(target: RunTarget): { kind: TargetKind; id: string } | undefined | 'several' {
  const given = [
    target.config_id ? { kind: 'configs' as const, id: target.config_id } : undefined,
    target.component_id ? { kind: 'components' as const, id: target.component_id } : undefined,
    target.check_id ? { kind: 'checks' as const, id: target.check_id } : undefined,
  ].filter((entry) => entry !== undefined);
  if (given.length > 1) return 'several';
  return given[0];
}

const RESOURCE_SQL: Record<TargetKind, string> = {
  configs: `SELECT id, name, namespace, type, coalesce(labels, '{}'::jsonb) || coalesce(tags, '{}'::jsonb) AS labels,
                   jsonb_build_object('id', id, 'name', name, 'type', type, 'config_class', config_class, 'tags', tags,
                     'labels', labels, 'config', config, 'status', status, 'health', health) AS value
              FROM config_items WHERE id = $1 AND deleted_at IS NULL`,
  components: `SELECT id, name, namespace, type, coalesce(labels, '{}'::jsonb) AS labels,
                      jsonb_build_object('id', id, 'name', name, 'type', type, 'namespace', namespace,
                        'labels', labels, 'status', status, 'health', health) AS value
                 FROM components WHERE id = $1 AND deleted_at IS NULL`,
  checks: `SELECT id, name, namespace, type, coalesce(labels, '{}'::jsonb) AS labels,
                  jsonb_build_object('id', id, 'name', name, 'type', type, 'namespace', namespace,
                    'labels', labels, 'status', status) AS value
             FROM checks WHERE id = $1 AND deleted_at IS NULL`,
};

export interface LoadedResource extends SelectableResource {
  value: Record<string, unknown>;
}

export async function loadResource(
  pool: Pool,
  kind: TargetKind,
  id: string,
): Promise<LoadedResource | undefined> {
  const { rows } = await pool.query<{
    id: string;
    name: string | null;
    namespace: string | null;
    type: string | null;
    labels: unknown;
    value: Record<string, unknown>;
  }>(RESOURCE_SQL[kind], [id]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name ?? '',
    namespace: row.namespace,
    type: row.type,
    labels: labelsOf(row.labels),
    value: row.value,
  };
}

/** Whether a playbook's `configs`/`components`/`checks` selectors take this resource. */
export function playbookAppliesTo(
  spec: Record<string, unknown>,
  kind: TargetKind,
  resource: SelectableResource,
): boolean {
  const selectors = spec[kind];
  if (!Array.isArray(selectors) || selectors.length === 0) return false;
  return selectors.some((selector) => matchesSelector(selector as never, resource));
}

/** A playbook that names no resource selectors runs without a resource. */
export function needsNoResource(spec: Record<string, unknown>): boolean {
  return (['configs', 'components', 'checks'] as const).every(
    (kind) => !Array.isArray(spec[kind]) || (spec[kind] as unknown[]).length === 0,
  );
}

export function parametersOf(spec: Record<string, unknown>): PlaybookParameter[] {
  return Array.isArray(spec.parameters) ? (spec.parameters as PlaybookParameter[]) : [];
}

/** The parameters with their `default` templates rendered over the resource (`.config`, `.check`, ...). */
export function renderParameters(
  parameters: readonly PlaybookParameter[],
  variables: Record<string, unknown>,
): PlaybookParameter[] {
  return parameters.map((parameter) => {
    if (typeof parameter.default !== 'string' || !parameter.default.includes('{{')) return parameter;
    let rendered: string;
    try {
      rendered = renderTemplate(parameter.default, variables);
    } catch {
      rendered = '';
    }
    return { ...parameter, default: rendered };
  });
}

export function templateVariables(
  kind: TargetKind | undefined,
  resource: LoadedResource | undefined,
): Record<string, unknown> {
  return {
    config: kind === 'configs' ? resource?.value : null,
    component: kind === 'components' ? resource?.value : null,
    check: kind === 'checks' ? resource?.value : null,
  };
}
