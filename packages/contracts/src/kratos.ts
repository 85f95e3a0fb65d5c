import { z } from 'zod';
import { aalSchema, flowTypeSchema } from './auth.js';

/**
 * Ory Kratos's public wire format (the `/api/kratos/` door of the identity flows): the Session,
 * Identity, self-service flow, UI node and error objects as Kratos's public API reference names
 * them, so that ecosystem clients (`@ory/client` FrontendApi) read Opsdeck's answers unchanged.
 */

/** A Kratos UI text: numeric id (Kratos's message catalogue), text, type, optional context. */
export const kratosUiTextSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  type: z.enum(['info', 'error', 'success']),
  context: z.record(z.string(), z.unknown()).optional(),
});
export type KratosUiText = z.infer<typeof kratosUiTextSchema>;

export const kratosInputAttributesSchema = z.object({
  node_type: z.literal('input'),
  name: z.string(),
  type: z.enum([
    'text',
    'password',
    'number',
    'checkbox',
    'hidden',
    'email',
    'tel',
    'submit',
    'button',
    'datetime-local',
    'date',
    'url',
  ]),
  value: z.unknown().optional(),
  required: z.boolean().optional(),
  disabled: z.boolean(),
  autocomplete: z.string().optional(),
  label: kratosUiTextSchema.optional(),
});

export const kratosTextAttributesSchema = z.object({
  node_type: z.literal('text'),
  id: z.string(),
  text: kratosUiTextSchema,
});

export const kratosAnchorAttributesSchema = z.object({
  node_type: z.literal('a'),
  id: z.string(),
  href: z.string(),
  title: kratosUiTextSchema,
});

export const kratosUiNodeSchema = z.object({
  type: z.enum(['input', 'text', 'img', 'a', 'script']),
  group: z.string(),
  attributes: z.discriminatedUnion('node_type', [
    kratosInputAttributesSchema,
    kratosTextAttributesSchema,
    kratosAnchorAttributesSchema,
  ]),
  messages: z.array(kratosUiTextSchema),
  meta: z.object({ label: kratosUiTextSchema.optional() }),
});
export type KratosUiNode = z.infer<typeof kratosUiNodeSchema>;

export const kratosUiContainerSchema = z.object({
  action: z.string(),
  method: z.string(),
  nodes: z.array(kratosUiNodeSchema),
  messages: z.array(kratosUiTextSchema).optional(),
});

/** `browser` flows are bound to a browser's cookies; `api` flows to a session token. */
export const kratosFlowClientSchema = z.enum(['browser', 'api']);

export const kratosContinueWithSchema = z.union([
  z.object({ action: z.literal('set_ory_session_token'), ory_session_token: z.string() }),
  z.object({
    action: z.literal('show_settings_ui'),
    flow: z.object({ id: z.string(), url: z.string().optional() }),
  }),
]);

export const kratosFlowSchema = z.object({
  id: z.string(),
  type: kratosFlowClientSchema,
  expires_at: z.string(),
  issued_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  request_url: z.string(),
  return_to: z.string().optional(),
  ui: kratosUiContainerSchema,
  state: z.string().optional(),
  active: z.string().optional(),
  refresh: z.boolean().optional(),
  requested_aal: aalSchema.optional(),
  identity: z.unknown().optional(),
  continue_with: z.array(kratosContinueWithSchema).optional(),
});
export type KratosFlow = z.infer<typeof kratosFlowSchema>;

export const kratosVerifiableAddressSchema = z.object({
  id: z.string(),
  value: z.string(),
  verified: z.boolean(),
  via: z.literal('email'),
  status: z.string(),
  verified_at: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const kratosRecoveryAddressSchema = z.object({
  id: z.string(),
  value: z.string(),
  via: z.literal('email'),
  created_at: z.string(),
  updated_at: z.string(),
});

export const kratosIdentitySchema = z.object({
  id: z.string(),
  schema_id: z.string(),
  schema_url: z.string(),
  state: z.enum(['active', 'inactive']),
  traits: z.object({
    email: z.string(),
    name: z.object({ first: z.string(), last: z.string() }),
  }),
  verifiable_addresses: z.array(kratosVerifiableAddressSchema),
  recovery_addresses: z.array(kratosRecoveryAddressSchema),
  metadata_public: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KratosIdentity = z.infer<typeof kratosIdentitySchema>;

export const kratosAuthenticationMethodSchema = z.object({
  method: z.string(),
  aal: aalSchema,
  completed_at: z.string(),
});

export const kratosSessionSchema = z.object({
  id: z.string(),
  active: z.boolean(),
  expires_at: z.string(),
  authenticated_at: z.string(),
  issued_at: z.string(),
  authenticator_assurance_level: aalSchema,
  authentication_methods: z.array(kratosAuthenticationMethodSchema),
  identity: kratosIdentitySchema,
});
export type KratosSession = z.infer<typeof kratosSessionSchema>;

/** A finished login or registration: the session, and for api flows its token. */
export const kratosSuccessfulLoginSchema = z.object({
  session: kratosSessionSchema,
  session_token: z.string().optional(),
  continue_with: z.array(kratosContinueWithSchema).optional(),
});

/** Kratos's generic error body (`{error: {id, code, status, reason?, message}}` plus hints). */
export const kratosErrorBodySchema = z.object({
  error: z.object({
    id: z.string().optional(),
    code: z.number().int(),
    status: z.string(),
    reason: z.string().optional(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
  redirect_browser_to: z.string().optional(),
  use_flow_id: z.string().optional(),
});
export type KratosErrorBody = z.infer<typeof kratosErrorBodySchema>;

/** A stored self-service error (`GET /self-service/errors?id=`). */
export const kratosFlowErrorSchema = z.object({
  id: z.string(),
  error: kratosErrorBodySchema.shape.error,
  created_at: z.string(),
  updated_at: z.string(),
});

export const kratosLogoutUrlSchema = z.object({ logout_token: z.string(), logout_url: z.string() });

/** The flow types the Kratos door serves (the same five as the web app's). */
export const kratosFlowTypeSchema = flowTypeSchema;
