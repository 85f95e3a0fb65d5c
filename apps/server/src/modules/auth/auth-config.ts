import { ROLES, type Role } from '@opsdeck/contracts';
import { z } from 'zod';
import { parseDuration, TimeParseError } from '../../platform/time/index.js';

/**
 * The auth module's own environment variables, validated here until the lead merges them into
 * the central configuration. Durations are in the one duration grammar (`platform/time`): 30s, 15m,
 * 1h30m, 24h, 7d, 2w.
 */

/** Whole milliseconds of a duration in the one duration grammar; undefined when it is not one. */
function durationMs(value: string): number | undefined {
  try {
    return Math.round(parseDuration(value));
  } catch (error) {
    if (error instanceof TimeParseError) return undefined;
    throw error;
  }
}

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const ms = durationMs(value);
      if (ms === undefined || ms <= 0) {
        context.addIssue({ code: 'custom', message: 'must be a duration such as 30s, 15m, 24h or 7d' });
        return z.NEVER;
      }
      return ms;
    });

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be one of true, false, 1, 0, yes, no' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = (fallback: number) =>
  z.coerce.number({ error: 'must be a number' }).int().min(1).default(fallback);

/** A variable that no longer exists: setting it stops the start with `message`. */
const removed = (message: string) =>
  z
    .string()
    .optional()
    .superRefine((value, context) => {
      if (value !== undefined) context.addIssue({ code: 'custom', message });
    });

const urlList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url({ error: 'must be a comma-separated list of URLs' })));

const environmentSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    AUTH_MODE: z
      .enum(['self-hosted', 'none'], { error: 'must be self-hosted or none' })
      .default('self-hosted'),
    PUBLIC_ROLE: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).default('viewer'),
    IDENTITY_PROVIDER: z.enum(['local', 'oidc'], { error: 'must be local or oidc' }).default('local'),
    PUBLIC_URL: z.url({ error: 'must be a URL such as https://opsdeck.example.com' }).optional(),
    ALLOWED_RETURN_URLS: urlList.optional(),
    SESSION_LIFESPAN: duration('24h'),
    PRIVILEGED_SESSION_MAX_AGE: duration('15m'),
    FLOW_LIFESPAN: duration('1h'),
    INVITE_LIFESPAN: duration('72h'),
    LOGIN_THROTTLE_WINDOW: duration('15m'),
    LOGIN_THROTTLE_FREE_ATTEMPTS: positiveInt(3),
    LOGIN_THROTTLE_ADDRESS_FREE_ATTEMPTS: positiveInt(20),
    LOGIN_THROTTLE_ACCOUNT_FREE_ATTEMPTS: positiveInt(10),
    LOGIN_THROTTLE_BASE_DELAY: duration('1s'),
    LOGIN_THROTTLE_MAX_DELAY: duration('15m'),
    LOGIN_THROTTLE_ACCOUNT_MAX_DELAY: duration('1m'),
    // Sign-ins no longer lock an account after N failures; say so instead of ignoring them.
    LOGIN_THROTTLE_ACCOUNT_MAX: removed(
      'was removed: failed sign-ins no longer lock the account; see LOGIN_THROTTLE_FREE_ATTEMPTS and LOGIN_THROTTLE_ACCOUNT_FREE_ATTEMPTS',
    ),
    LOGIN_THROTTLE_ADDRESS_MAX: removed(
      'was removed: failing addresses now wait longer at each failure; see LOGIN_THROTTLE_ADDRESS_FREE_ATTEMPTS',
    ),
    EMAIL_THROTTLE_WINDOW: duration('1h'),
    EMAIL_THROTTLE_ADDRESS_MAX: positiveInt(5),
    EMAIL_THROTTLE_CLIENT_MAX: positiveInt(30),
    REGISTRATION_ENABLED: booleanFromEnv.default(true),
    REGISTRATION_ROLE: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587')
      .optional(),
    SMTP_FROM: z.string().min(3).default('Opsdeck <no-reply@opsdeck.local>'),
    OIDC_ISSUER: z.url({ error: 'must be the issuer URL of an OpenID Connect provider' }).optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_NAME: z.string().min(1).default('OpenID Connect'),
    WEBAUTHN_RP_ID: z.string().min(1).optional(),
    WEBAUTHN_RP_NAME: z.string().min(1).default('Opsdeck'),
    WEBAUTHN_ORIGINS: urlList.optional(),
  })
  .superRefine((env, context) => {
    if (env.LOGIN_THROTTLE_BASE_DELAY > env.LOGIN_THROTTLE_MAX_DELAY) {
      context.addIssue({
        code: 'custom',
        path: ['LOGIN_THROTTLE_BASE_DELAY'],
        message: 'must not be longer than LOGIN_THROTTLE_MAX_DELAY',
      });
    }
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_CLIENT_ID'],
        message: 'is required when OIDC_ISSUER is set',
      });
    }
    if (env.IDENTITY_PROVIDER === 'oidc' && !env.OIDC_ISSUER) {
      context.addIssue({
        code: 'custom',
        path: ['IDENTITY_PROVIDER'],
        message: 'oidc needs OIDC_ISSUER and OIDC_CLIENT_ID: people come from that provider',
      });
    }
    if (!env.OIDC_ISSUER && env.OIDC_CLIENT_ID) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'is required when OIDC_CLIENT_ID is set',
      });
    }
  });

export interface OidcProviderConfig {
  /** The provider id used in flows and links: always 'oidc' (one operator-configured provider). */
  id: 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** Label of the sign-in button. */
  name: string;
}

export interface AuthConfig {
  /** 'none' is public mode: no sign-in, every request acts as `publicRole`. */
  mode: 'self-hosted' | 'none';
  publicRole: Role;
  /**
   * Spec core §1/§2: with a hosted identity provider (`IDENTITY_PROVIDER=oidc`) people, their
   * names and emails come from that provider, so the users page is hidden and the server refuses
   * invitations, deletions and identity edits; `undefined` when people are managed here.
   */
  hostedIdentityProvider?: { name: string };
  /** Origin and path prefix of links in emails, OIDC callbacks and WebAuthn. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (links use a localhost default otherwise). */
  publicUrlConfigured: boolean;
  /** Absolute return_to addresses allowed besides the public URL's origin. */
  allowedReturnOrigins: string[];
  sessionLifespanMs: number;
  /** Settings changes that touch credentials need a sign-in at most this old. */
  privilegedSessionMaxAgeMs: number;
  flowLifespanMs: number;
  inviteLifespanMs: number;
  /** Failed sign-ins (login-throttle.ts): waits that double per failure, per client and account. */
  throttle: {
    /** Counters are forgotten after this long without a failure (after the last wait ended). */
    windowMs: number;
    /** Failures one client address may make on one account before it waits. */
    freeAttempts: number;
    /** Failures one client address may make across accounts before it waits. */
    addressFreeAttempts: number;
    /** Failures on one account, from all clients, before clients that failed on it wait too. */
    accountFreeAttempts: number;
    /** The first wait; each further failure doubles it. */
    baseDelayMs: number;
    /** The longest wait of a client (per account, per address). */
    maxDelayMs: number;
    /** The longest account-wide wait (mild: it never applies to a client that has not failed). */
    accountMaxDelayMs: number;
  };
  /**
   * Recovery and verification emails sent per window: per recipient address (`addressMax`)
   * and per client IP address (`clientMax`).
   */
  emailThrottle: { windowMs: number; addressMax: number; clientMax: number };
  registration: { enabled: boolean; role: Role | undefined };
  smtp: { url: string; from: string } | undefined;
  oidc: OidcProviderConfig | undefined;
  webauthn: { rpId: string; rpName: string; origins: string[] };
}

export class AuthConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid auth configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'AuthConfigError';
  }
}

export function loadAuthConfig(environment: NodeJS.ProcessEnv = process.env): AuthConfig {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new AuthConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT || 8080}`).replace(/\/+$/, '');
  const publicOrigin = new URL(publicUrl).origin;
  return {
    mode: env.AUTH_MODE,
    publicRole: env.PUBLIC_ROLE,
    hostedIdentityProvider: env.IDENTITY_PROVIDER === 'oidc' ? { name: env.OIDC_NAME } : undefined,
    publicUrl,
    publicUrlConfigured: Boolean(env.PUBLIC_URL),
    allowedReturnOrigins: (env.ALLOWED_RETURN_URLS ?? []).map((url) => new URL(url).origin),
    sessionLifespanMs: env.SESSION_LIFESPAN,
    privilegedSessionMaxAgeMs: env.PRIVILEGED_SESSION_MAX_AGE,
    flowLifespanMs: env.FLOW_LIFESPAN,
    inviteLifespanMs: env.INVITE_LIFESPAN,
    throttle: {
      windowMs: env.LOGIN_THROTTLE_WINDOW,
      freeAttempts: env.LOGIN_THROTTLE_FREE_ATTEMPTS,
      addressFreeAttempts: env.LOGIN_THROTTLE_ADDRESS_FREE_ATTEMPTS,
      accountFreeAttempts: env.LOGIN_THROTTLE_ACCOUNT_FREE_ATTEMPTS,
      baseDelayMs: env.LOGIN_THROTTLE_BASE_DELAY,
      maxDelayMs: env.LOGIN_THROTTLE_MAX_DELAY,
      accountMaxDelayMs: env.LOGIN_THROTTLE_ACCOUNT_MAX_DELAY,
    },
    emailThrottle: {
      windowMs: env.EMAIL_THROTTLE_WINDOW,
      addressMax: env.EMAIL_THROTTLE_ADDRESS_MAX,
      clientMax: env.EMAIL_THROTTLE_CLIENT_MAX,
    },
    registration: { enabled: env.REGISTRATION_ENABLED, role: env.REGISTRATION_ROLE },
    smtp: env.SMTP_URL ? { url: env.SMTP_URL, from: env.SMTP_FROM } : undefined,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID
        ? {
            id: 'oidc',
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET,
            name: env.OIDC_NAME,
          }
        : undefined,
    webauthn: {
      rpId: env.WEBAUTHN_RP_ID ?? new URL(publicUrl).hostname,
      rpName: env.WEBAUTHN_RP_NAME,
      origins: env.WEBAUTHN_ORIGINS?.map((url) => new URL(url).origin) ?? [publicOrigin],
    },
  };
}
