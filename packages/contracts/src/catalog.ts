import { z } from 'zod';

/**
 * Severities of a config change, a config analysis (insight) and a health check's spec, lowest
 * first: the ecosystem's five. The spec names these fields without listing their values; these
 * are the values the change feed and insights filters offer and the Canary kind accepts.
 */
export const RESOURCE_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
export const resourceSeveritySchema = z.enum(RESOURCE_SEVERITIES);
export type ResourceSeverity = z.infer<typeof resourceSeveritySchema>;
