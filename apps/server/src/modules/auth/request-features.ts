/** Feature flags read at most once per request. */
import type { Feature } from '@opsdeck/contracts';
import type { FastifyRequest } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { isFeatureEnabled } from './feature-flags.js';

/**
 * Feature checks of one request: the data API asks for every relation a request touches (an
 * incident with its hypotheses, evidences and config items is four relations of two areas), and
 * each area is read once per request — never cached across requests, so a flag turned off on one
 * replica applies everywhere at once.
 */
const featureChecksByRequest = new WeakMap<FastifyRequest, Map<Feature, Promise<boolean>>>();

export function featureEnabledForRequest(
  pool: Pool,
  request: FastifyRequest,
  feature: Feature,
): Promise<boolean> {
  let checks = featureChecksByRequest.get(request);
  if (!checks) {
    checks = new Map();
    featureChecksByRequest.set(request, checks);
  }
  let check = checks.get(feature);
  if (!check) {
    check = isFeatureEnabled(pool, feature);
    // A failed read is not remembered: the next relation asks again (and fails the same way).
    check.catch(() => checks.delete(feature));
    checks.set(feature, check);
  }
  return check;
}
