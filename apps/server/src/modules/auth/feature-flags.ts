import { featureDisableProperties, RESOURCE_FEATURES, type Feature, type Resource } from '@opsdeck/contracts';
import { anyPropertyTrue } from '../settings/index.js';
import type { Queryable } from './identity-store.js';

/**
 * Whether an area is on: off when the property '{feature}.disable' is 'true', or when the area
 * it depends on is off (settings.health follows health, for instance). Read on every call, so
 * a change made on one replica is seen by all at once.
 */
export async function isFeatureEnabled(db: Queryable, feature: Feature): Promise<boolean> {
  return !(await anyPropertyTrue(db, featureDisableProperties(feature)));
}

export function featureDisabledMessage(feature: Feature): string {
  return `The ${feature} feature is disabled`;
}

/** The feature that refuses a resource while it is off, if any. */
export function featureOfResource(resource: Resource): Feature | undefined {
  return RESOURCE_FEATURES[resource];
}
