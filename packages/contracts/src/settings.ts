import { z } from 'zod';

/**
 * Settings (properties, i.e. feature flags, spec core §6): `GET /api/properties` and the
 * `properties` relation of the data API. A property '{feature}.disable' = 'true' turns an area
 * off (permissions.ts, FEATURES).
 */

const isoTime = z.iso.datetime({ offset: true });

/** A property as `GET /api/properties` lists it; `source` says where it is set ('db'). */
export const propertySchema = z.object({
  name: z.string(),
  /** Always text: `type` says how to read it. */
  value: z.string(),
  source: z.string(),
  type: z.string().nullable(),
  description: z.string().nullable(),
});
export type Property = z.infer<typeof propertySchema>;

/** The body of `GET /api/properties`: every property not deleted, by name. */
export const propertiesResponseSchema = z.array(propertySchema);
export type PropertiesResponse = z.infer<typeof propertiesResponseSchema>;

/** `properties` as the data API reads it (migration 0003). */
export const propertyRowSchema = z.object({
  name: z.string(),
  value: z.string(),
  type: z.string().nullable(),
  description: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});
export type PropertyRow = z.infer<typeof propertyRowSchema>;
