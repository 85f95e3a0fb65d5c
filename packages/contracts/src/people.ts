import { z } from 'zod';

const isoTime = z.iso.datetime({ offset: true });

/**
 * The users page (spec core §2 `/settings/users`, §7 `GET /identities` then `GET /people_roles`):
 * the identity rows of the data API.
 */

/** `identities`: the self-service identity of a person (migration 0002), same id as the person. */
export const identityRowSchema = z.object({
  id: z.string(),
  schema_id: z.string(),
  traits: z.object({
    email: z.string().optional(),
    name: z.object({ first: z.string().optional(), last: z.string().optional() }).optional(),
  }),
  /** 'inactive' once the person was deleted: sign-in is refused. */
  state: z.enum(['active', 'inactive']),
  created_at: isoTime,
  updated_at: isoTime,
});
export type IdentityRow = z.infer<typeof identityRowSchema>;

/** How the users page shows a person: invited (never signed in), active, or deactivated. */
export const USER_STATUSES = ['Invited', 'Active', 'Deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
