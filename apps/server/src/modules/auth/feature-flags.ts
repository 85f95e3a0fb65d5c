import { featureDisableProperties, RESOURCE_FEATURES, type Feature, type Resource } from '@opsdeck/contracts';
import type { Queryable } from './identity-store.js';

/**
 * Whether an area is on: off when the property '{feature}.disable' is 'true', or when the area
 * it depends on is off (settings.health follows health, for instance). Read on every call, so
 * a change made on one replica is seen by all at once.
 */
export async function isFeatureEnabled(db: Queryable, feature: Feature): Promise<boolean> {
  const { rows } = await db.query<{ disabled: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM properties
        WHERE name = ANY($1::text[]) AND deleted_at IS NULL AND lower(trim(value)) = 'true'
     ) AS disabled`,
    [featureDisableProperties(feature)],
  );
  return !rows[0]?.disabled;
}

export function featureDisabledMessage(feature: Feature): string {
  return `The ${feature} feature is disabled`;
}

/** The feature that refuses a resource while it is off, if any. */
export function featureOfResource(resource: Resource): Feature | undefined {
  return RESOURCE_FEATURES[resource];
}
