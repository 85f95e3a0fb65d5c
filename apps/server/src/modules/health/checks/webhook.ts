import { z } from 'zod';
import type { JsonValue } from '../../../expressions/index.js';
import { invalidResult, passing } from './check-result.js';
import { baseSpecShape, parseSpec, valueSourceField } from './spec-fields.js';
import type { CheckType } from './types.js';

const webhookSpecSchema = z.looseObject({
  ...baseSpecShape,
  /** When set (and not empty), pushes must present it as `?token=` or a `Webhook-Token` header. */
  token: valueSourceField.optional(),
});

export type WebhookCheckSpec = z.infer<typeof webhookSpecSchema>;

/** What a push to `POST /webhook/{id}` carries: the check's `results`. */
export interface WebhookPayload {
  headers: Record<string, string>;
  /** The body when it was sent as application/json. */
  json?: JsonValue;
  /** The body as text otherwise. */
  content?: string;
}

/** Where results of a webhook check are pushed (relative to the server's address). */
export function webhookPath(idOrName: string): string {
  return `/webhook/${encodeURIComponent(idOrName)}`;
}

/**
 * The webhook check: its results are pushed to the server, so the scheduler never runs it
 * (`pushed`); running it without a push reports how to feed it.
 */
export const webhookCheck: CheckType<WebhookCheckSpec> = {
  type: 'webhook',
  specKey: 'webhook',
  pushed: true,
  schema: webhookSpecSchema,
  parse: (raw) => parseSpec(webhookSpecSchema, raw, 'webhook'),
  endpoint: (spec) => webhookPath(spec.name),
  run: async (spec) => invalidResult(`webhook checks get their results from POST ${webhookPath(spec.name)}`),
};

/**
 * The webhook check for one push: the same spec, with the pushed request as its outcome, so
 * `transform`, `display`, `test` and `markFailOnEmpty` apply as for any other check.
 */
export function pushedWebhookCheck(payload: WebhookPayload): CheckType<WebhookCheckSpec> {
  const results: Record<string, JsonValue> = { headers: payload.headers };
  if (payload.json !== undefined) results.json = payload.json;
  if (payload.content !== undefined) results.content = payload.content;
  return {
    ...webhookCheck,
    run: async () =>
      passing({
        duration: 0,
        data: { results, headers: payload.headers, json: payload.json ?? {}, content: payload.content ?? '' },
        detail: results,
        empty: payload.json === undefined && (payload.content ?? '') === '',
      }),
  };
}
