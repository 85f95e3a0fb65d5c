import { z } from 'zod';
import { tokenScopeSchema } from './permissions.js';
import { ROLES } from './roles.js';

/**
 * The account API of API.md §2 (whoami, invites, tokens, token permissions, people edits, role
 * assignment) and the row shapes of the relations behind it (people, teams, access tokens). The
 * server validates the requests with these; the web app parses the answers with them.
 * The self-service flows (`/api/auth/self-service/*`) keep their own Kratos-shaped answers and
 * errors and are not described here.
 */

const isoTime = z.iso.datetime({ offset: true });

/** A loose check: one @ with something on both sides and a dot after it (as the server's sign-up). */
export function isEmailAddress(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) && value.length <= 254;
}

/** A role name of spec core §6, with the messages the people screens show. */
export const roleSchema = z.enum(ROLES, {
  error: (issue) =>
    issue.input === undefined ? 'Role is required' : `Role must be one of ${ROLES.join(', ')}`,
});

/** `:id` of the account routes that name a token or a person. */
export const accountIdParamsSchema = z.object({ id: z.guid({ error: 'id must be a uuid' }) });
export type AccountIdParams = z.infer<typeof accountIdParamsSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/auth/whoami

/** One permission of the caller: from a role (subject = role, action read/write) or a permission row. */
export const whoamiPermissionSchema = z.object({
  subject: z.string(),
  object: z.string(),
  action: z.string(),
  deny: z.boolean(),
});
export type WhoamiPermission = z.infer<typeof whoamiPermissionSchema>;

export const whoamiUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type WhoamiUser = z.infer<typeof whoamiUserSchema>;

export const whoamiResponseSchema = z.object({
  message: z.string(),
  payload: z.object({
    user: whoamiUserSchema,
    roles: z.array(roleSchema),
    permissions: z.array(whoamiPermissionSchema),
    hostname: z.string(),
    database: z.string(),
    /**
     * Spec core §1/§2: set when people come from a hosted identity provider (its name); the
     * users page is then hidden and people are invited, renamed and removed there.
     */
    identity_provider: z.object({ hosted: z.boolean(), name: z.string().nullable() }).optional(),
  }),
});
export type WhoamiResponse = z.infer<typeof whoamiResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/auth/invite_user

export const inviteUserRequestSchema = z.object({
  firstName: z.string().trim().max(200).default(''),
  lastName: z.string().trim().max(200).default(''),
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .refine(isEmailAddress, { message: 'Email must be a valid email address' }),
  role: roleSchema,
});
/** What a client sends (names may be left out). */
export type InviteUserRequest = z.input<typeof inviteUserRequestSchema>;
/** The invite as the server reads it. */
export type InviteUser = z.output<typeof inviteUserRequestSchema>;

/** The one-time link the invited person opens (also emailed when mail is configured). */
export const inviteUserResponseSchema = z.object({
  link: z.string(),
  /** true when the link went out by email (SMTP_URL set); otherwise the admin hands it over. */
  emailed: z.boolean(),
});
export type InviteUserResponse = z.infer<typeof inviteUserResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Tokens: POST /api/auth/create_token (request in permissions.ts), GET /api/auth/tokens,
// DELETE /api/auth/token/:id, GET /api/rbac/token/:id/permissions

export const createTokenResponseSchema = z.object({ payload: z.object({ token: z.string().min(1) }) });
export type CreateTokenResponse = z.infer<typeof createTokenResponseSchema>;

/** A person as the token list shows them. */
export const tokenPersonSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type TokenPerson = z.infer<typeof tokenPersonSchema>;

/** A row of GET /api/auth/tokens (never the secret). */
export const accessTokenViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.array(tokenScopeSchema),
  created_at: isoTime,
  expires_at: isoTime.nullable(),
  person: tokenPersonSchema.nullable(),
  created_by: tokenPersonSchema.nullable(),
  /** Not sent yet: the list shows a "Last used" column once the server reports it. */
  last_used_at: isoTime.nullable().optional(),
});
export type AccessTokenView = z.infer<typeof accessTokenViewSchema>;

export const accessTokensResponseSchema = z.object({ payload: z.array(accessTokenViewSchema) });
export type AccessTokensResponse = z.infer<typeof accessTokensResponseSchema>;

/** What a token may do: its scopes, or (unscoped) its owner's effective permissions. */
export const tokenPermissionsResponseSchema = z.object({ payload: z.array(whoamiPermissionSchema) });
export type TokenPermissionsResponse = z.infer<typeof tokenPermissionsResponseSchema>;

export const deleteTokenResponseSchema = z.object({ message: z.string() });
export type DeleteTokenResponse = z.infer<typeof deleteTokenResponseSchema>;

// ---------------------------------------------------------------------------------------------
// People: POST /api/people/update, DELETE /api/people/:id, POST /api/rbac/:id/update_role

export const personUpdateRequestSchema = z.object({
  id: z.guid({ error: 'id must be a person id' }),
  name: z.string().trim().min(1, 'Name is required').max(200).optional(),
  firstName: z.string().trim().max(200).optional(),
  lastName: z.string().trim().max(200).optional(),
  email: z
    .string()
    .trim()
    .refine(isEmailAddress, { message: 'Email must be a valid email address' })
    .optional(),
  avatar: z.string().max(2048).nullable().optional(),
  roles: z.array(roleSchema).max(ROLES.length).optional(),
});
export type PersonUpdateRequest = z.input<typeof personUpdateRequestSchema>;
export type PersonUpdate = z.output<typeof personUpdateRequestSchema>;

/** A person after an edit: POST /api/people/update answers with it. */
export const personViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  roles: z.array(roleSchema),
});
export type PersonView = z.infer<typeof personViewSchema>;

export const deletePersonResponseSchema = z.object({
  message: z.string(),
  payload: z.object({ id: z.string() }),
});
export type DeletePersonResponse = z.infer<typeof deletePersonResponseSchema>;

export const updateRolesRequestSchema = z.object({
  roles: z.array(roleSchema, { error: 'Roles must be a list of role names' }).max(ROLES.length),
});
export type UpdateRolesRequest = z.infer<typeof updateRolesRequestSchema>;

export const updateRolesResponseSchema = z.object({
  message: z.string(),
  payload: z.object({ id: z.string(), roles: z.array(roleSchema) }),
});
export type UpdateRolesResponse = z.infer<typeof updateRolesResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Self-service flows (`/api/auth/self-service/<type>/...`, Kratos-shaped): the flow the screens
// render, what a finished submit answers, and the error body of a refused call. Their requests
// are read field by field by the flow handlers, which answer in this Kratos shape (never the
// generic `{error, field}`), so the server does not declare route schemas for them.

/** The self-service flows, in the order of spec core §2. */
export const FLOW_TYPES = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;
export const flowTypeSchema = z.enum(FLOW_TYPES);
export type FlowType = z.infer<typeof flowTypeSchema>;

export const AALS = ['aal1', 'aal2'] as const;
export const aalSchema = z.enum(AALS);
export type Aal = z.infer<typeof aalSchema>;

/** A message of a flow or of one of its fields. */
export const uiTextSchema = z.object({
  id: z.string(),
  text: z.string(),
  type: z.enum(['info', 'error', 'success']),
});
export type UiText = z.infer<typeof uiTextSchema>;

export const UI_NODE_TYPES = [
  'hidden',
  'text',
  'email',
  'password',
  'submit',
  'button',
  'checkbox',
  'script',
] as const;

/** A field or button of a flow's form. */
export const uiNodeSchema = z.object({
  /** The method it belongs to: default, password, oidc, passkey, totp, lookup_secret, webauthn, code, profile. */
  group: z.string(),
  name: z.string(),
  type: z.enum(UI_NODE_TYPES),
  value: z.unknown().optional(),
  required: z.boolean().optional(),
  disabled: z.boolean().optional(),
  label: z.string().optional(),
  autocomplete: z.string().optional(),
  messages: z.array(uiTextSchema),
});
export type UiNode = z.infer<typeof uiNodeSchema>;

/**
 * A flow as its create, get and (re-rendered) submit answers send it. A settings flow also
 * carries the signed-in `identity`, which the screens do not read.
 */
export const flowSchema = z.object({
  id: z.string(),
  type: flowTypeSchema,
  state: z.string().nullable(),
  issued_at: isoTime,
  expires_at: isoTime,
  request_url: z.string(),
  return_to: z.string().nullable(),
  refresh: z.boolean(),
  requested_aal: aalSchema,
  csrf_token: z.string(),
  ui: z.object({
    action: z.string(),
    method: z.string(),
    nodes: z.array(uiNodeSchema),
    messages: z.array(uiTextSchema),
  }),
});
export type Flow = z.infer<typeof flowSchema>;

/**
 * What a finished submit answers instead of a flow: where the browser goes next, and (after a
 * registration whose address needs verifying) the verification flow to show.
 */
/** A next step of a finished flow: `show_verification_ui` carries the verification flow to show. */
export const continueWithSchema = z.object({
  action: z.string(),
  flow: z.object({ id: z.string() }).optional(),
});
export type ContinueWith = z.infer<typeof continueWithSchema>;

export const flowDoneResponseSchema = z.object({
  return_to: z.string().optional(),
  redirect_browser_to: z.string().optional(),
  continue_with: z.array(continueWithSchema).optional(),
});
export type FlowDoneResponse = z.infer<typeof flowDoneResponseSchema>;

/** The body of a refused flow call (spec core §8 ids): `{error: {...}, redirect_browser_to?, use_flow_id?}`. */
export const flowErrorBodySchema = z.object({
  error: z.object({
    id: z.string().optional(),
    /** The HTTP status again, and its text ('Gone'): always sent, not needed to read the error. */
    code: z.number().optional(),
    status: z.string().optional(),
    message: z.string(),
    reason: z.string().optional(),
  }),
  redirect_browser_to: z.string().optional(),
  use_flow_id: z.string().optional(),
});
export type FlowErrorBody = z.infer<typeof flowErrorBodySchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/auth/self-service/logout/browser (the web app's sign-out reads it)

export const logoutBrowserResponseSchema = z.object({
  logout_token: z.string().min(1),
  logout_url: z.string(),
});
export type LogoutBrowserResponse = z.infer<typeof logoutBrowserResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Rows of the data API (migration 0002, 0100): listed in rows.ts

/** `people`: humans, and the service people agents and tokens act as (type). */
export const personRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  /** null for a human; 'agent', 'access_token' or 'public' for a service person. */
  type: z.string().nullable(),
  title: z.string().nullable(),
  phone: z.string().nullable(),
  properties: z.unknown(),
  external_id: z.string().nullable(),
  team_id: z.string().nullable(),
  /** Organization the person belongs to (free text). */
  organization: z.string().nullable(),
  last_login: isoTime.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});
export type PersonRow = z.infer<typeof personRowSchema>;

/** `people_roles`: a person with the roles they hold. */
export const personRolesRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  roles: z.array(roleSchema),
});
export type PersonRolesRow = z.infer<typeof personRolesRowSchema>;

/** `teams`. */
export const teamRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  icon: z.string().nullable(),
  labels: z.object({}).catchall(z.string()).nullable(),
  spec: z.unknown(),
  source: z.string(),
  agent_id: z.string(),
  created_by: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});
export type TeamRow = z.infer<typeof teamRowSchema>;

/** `team_members`. */
export const teamMemberRowSchema = z.object({
  team_id: z.string(),
  person_id: z.string(),
  source: z.string(),
  created_at: isoTime,
});
export type TeamMemberRow = z.infer<typeof teamMemberRowSchema>;

/** `access_tokens` as the data API shows it: never `value` (the token's hash). */
export const accessTokenRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  person_id: z.string(),
  created_by: z.string().nullable(),
  scope: z.array(tokenScopeSchema),
  created_at: isoTime,
  expires_at: isoTime.nullable(),
});
export type AccessTokenRow = z.infer<typeof accessTokenRowSchema>;
