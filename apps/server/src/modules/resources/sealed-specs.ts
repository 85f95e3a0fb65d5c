import {
  isSealed,
  MASKED_SECRET,
  openSealedStrings,
  sealSecretFields,
} from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import { CONNECTION_SECRET_FIELDS } from './kinds/connection.js';

/**
 * The tables whose specs hold secret-shaped fields that the product opens where it uses them
 * (connections' typed blocks, checks' and scrapers' inline credentials): those fields are sealed
 * at rest whatever path wrote them (YAML apply, the data API, the editors). A module that starts
 * reading secrets from another table's spec adds the table here and opens them where it uses
 * them (`openSealedStrings`).
 */
export const SEALED_SPEC_TABLES: ReadonlySet<string> = new Set([
  'connections',
  'canaries',
  'config_scrapers',
  'checks',
  // Webhook credentials and the passwords of http/sql actions: opened by the runner and the
  // webhook route only.
  'playbooks',
]);

const REFERENCE = /^(secret|configmap):\/\//;

function sealColumn(value: unknown, box: SecretBox): unknown {
  if (typeof value !== 'string' || value === '' || value === MASKED_SECRET) return value;
  if (isSealed(value) || REFERENCE.test(value)) return value;
  return box.seal(value);
}

/** Seals the secrets of one row written to `table` (its spec's secret fields, a connection's credentials). */
export function sealRowSecrets(
  table: string,
  row: Readonly<Record<string, unknown>>,
  box: SecretBox,
): Record<string, unknown> {
  if (!SEALED_SPEC_TABLES.has(table)) return { ...row };
  const out: Record<string, unknown> = { ...row };
  if (out.spec !== null && typeof out.spec === 'object') out.spec = sealSecretFields(out.spec, box);
  if (table === 'connections') {
    for (const column of CONNECTION_SECRET_FIELDS)
      if (column in out) out[column] = sealColumn(out[column], box);
    if (out.properties !== null && typeof out.properties === 'object')
      out.properties = sealSecretFields(out.properties, box);
  }
  return out;
}

/** The data API's row transformer: every write to these tables is sealed. */
export function createRowSealer(
  box: SecretBox,
): (relation: string, row: Readonly<Record<string, unknown>>) => Record<string, unknown> {
  return (relation, row) =>
    SEALED_SPEC_TABLES.has(relation) ? sealRowSecrets(relation, row, box) : { ...row };
}

/** A stored spec as it was written (sealed fields opened), to compare with a wanted one. */
export function openedSpec(spec: unknown, box: SecretBox | undefined): unknown {
  try {
    return openSealedStrings(spec, box);
  } catch {
    return spec;
  }
}
