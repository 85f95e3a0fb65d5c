import type { Queryable } from '../../platform/jobs/index.js';

/**
 * The transaction-local setting the incident triggers (migration 0031) read as "who is acting":
 * timeline entries of updates (status changes, definition of done) are attributed to this
 * person, and new incident rows without created_by get it.
 */
export const ACTING_PERSON_SETTING = 'opsdeck.person_id';

/**
 * Declares the acting person for the rest of the current transaction (call it inside BEGIN …
 * COMMIT, before the writes). Outside a transaction it lasts for one statement only.
 */
export async function setActingPerson(client: Queryable, personId: string | null): Promise<void> {
  await client.query('SELECT set_config($1, $2, true)', [ACTING_PERSON_SETTING, personId ?? '']);
}
