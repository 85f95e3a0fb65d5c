import { describe, expect, it } from 'vitest';
import { parseExpiry, parseScopes, parseTokenString } from './access-tokens.js';
import { AuthConfigError, loadAuthConfig } from './auth-config.js';
import { FlowError, validateReturnTo } from './flows/flow-core.js';

describe('auth configuration', () => {
  it('has safe defaults', () => {
    const config = loadAuthConfig({});
    expect(config).toMatchObject({
      mode: 'self-hosted',
      publicRole: 'viewer',
      publicUrl: 'http://localhost:8080',
      sessionLifespanMs: 24 * 3_600_000,
      privilegedSessionMaxAgeMs: 15 * 60_000,
      throttle: {
        windowMs: 15 * 60_000,
        freeAttempts: 3,
        addressFreeAttempts: 20,
        accountFreeAttempts: 10,
        baseDelayMs: 1000,
        maxDelayMs: 15 * 60_000,
        accountMaxDelayMs: 60_000,
      },
      emailThrottle: { windowMs: 3_600_000, addressMax: 5, clientMax: 30 },
      registration: { enabled: true, role: undefined },
      smtp: undefined,
      oidc: undefined,
      webauthn: { rpId: 'localhost', rpName: 'Opsdeck', origins: ['http://localhost:8080'] },
    });
  });

  it('reads SMTP, OIDC and WebAuthn settings', () => {
    const config = loadAuthConfig({
      PUBLIC_URL: 'https://ops.example.com/',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
      SMTP_FROM: 'Ops <ops@example.com>',
      OIDC_ISSUER: 'https://sso.example.com',
      OIDC_CLIENT_ID: 'opsdeck',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_NAME: 'Example SSO',
      SESSION_LIFESPAN: '8h',
    });
    expect(config.publicUrl).toBe('https://ops.example.com');
    expect(config.smtp).toEqual({
      url: 'smtp://user:pass@mail.example.com:587',
      from: 'Ops <ops@example.com>',
    });
    expect(config.oidc).toEqual({
      id: 'oidc',
      issuer: 'https://sso.example.com',
      clientId: 'opsdeck',
      clientSecret: 's3cret',
      name: 'Example SSO',
    });
    expect(config.webauthn).toMatchObject({ rpId: 'ops.example.com', origins: ['https://ops.example.com'] });
    expect(config.sessionLifespanMs).toBe(8 * 3_600_000);
  });

  it('names each bad variable', () => {
    expect(() => loadAuthConfig({ OIDC_ISSUER: 'https://sso.example.com' })).toThrow(
      /OIDC_CLIENT_ID: is required/,
    );
    expect(() => loadAuthConfig({ SMTP_URL: 'mail.example.com' })).toThrow(AuthConfigError);
    expect(() => loadAuthConfig({ SESSION_LIFESPAN: 'forever' })).toThrow(/SESSION_LIFESPAN/);
    expect(() => loadAuthConfig({ AUTH_MODE: 'kerberos' })).toThrow(/AUTH_MODE/);
    expect(() => loadAuthConfig({ LOGIN_THROTTLE_BASE_DELAY: '1h' })).toThrow(
      /LOGIN_THROTTLE_BASE_DELAY: must not be longer than LOGIN_THROTTLE_MAX_DELAY/,
    );
    expect(() => loadAuthConfig({ LOGIN_THROTTLE_FREE_ATTEMPTS: '0' })).toThrow(
      /LOGIN_THROTTLE_FREE_ATTEMPTS/,
    );
    // The lock-out limits are gone: setting one says what replaced it.
    expect(() => loadAuthConfig({ LOGIN_THROTTLE_ACCOUNT_MAX: '5' })).toThrow(
      /LOGIN_THROTTLE_ACCOUNT_MAX: was removed: failed sign-ins no longer lock the account/,
    );
    expect(() => loadAuthConfig({ LOGIN_THROTTLE_ADDRESS_MAX: '20' })).toThrow(
      /LOGIN_THROTTLE_ADDRESS_MAX: was removed/,
    );
  });

  it('reads durations in the one duration grammar', () => {
    expect(loadAuthConfig({ SESSION_LIFESPAN: '1h30m' }).sessionLifespanMs).toBe(5_400_000);
    expect(loadAuthConfig({ SESSION_LIFESPAN: '2w' }).sessionLifespanMs).toBe(14 * 86_400_000);
    expect(() => loadAuthConfig({ SESSION_LIFESPAN: 'soon' })).toThrow(
      /SESSION_LIFESPAN: must be a duration/,
    );
    expect(() => loadAuthConfig({ SESSION_LIFESPAN: '0s' })).toThrow(/SESSION_LIFESPAN: must be a duration/);
  });
});

describe('return_to', () => {
  const config = {
    ...loadAuthConfig({ PUBLIC_URL: 'https://ops.example.com' }),
    allowedReturnOrigins: ['https://docs.example.com'],
  };
  it('accepts paths and allowed origins', () => {
    expect(validateReturnTo(undefined, config)).toBe('/');
    expect(validateReturnTo('/incidents?status=open', config)).toBe('/incidents?status=open');
    expect(validateReturnTo('https://ops.example.com/health', config)).toBe('https://ops.example.com/health');
    expect(validateReturnTo('https://docs.example.com/a', config)).toBe('https://docs.example.com/a');
  });
  it.each([
    'https://evil.example.com',
    '//evil.example.com/x',
    '/\\evil.example.com',
    'javascript:alert(1)',
    'http://ops.example.com/',
  ])('refuses %s', (value) => {
    expect(() => validateReturnTo(value, config)).toThrow(FlowError);
  });
});

describe('token strings and scopes', () => {
  it('parses the token format and refuses others', () => {
    const id = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const secret = 'A'.repeat(43);
    expect(parseTokenString(`opsdeck_${id.replace(/-/g, '')}_${secret}`)).toEqual({ id, secret });
    expect(parseTokenString('opsdeck_zz_abc')).toBeUndefined();
    expect(parseTokenString('something else')).toBeUndefined();
  });

  it('parses expiry and scopes', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseExpiry('never', now)).toBeNull();
    expect(parseExpiry('', now)).toBeNull();
    expect(parseExpiry('7d', now)?.toISOString()).toBe('2026-01-08T00:00:00.000Z');
    expect(() => parseExpiry('next week', now)).toThrow(/Expiry/);
    // The one duration grammar: combined units; months have no fixed length; bounded.
    expect(parseExpiry('1d12h', now)?.toISOString()).toBe('2026-01-02T12:00:00.000Z');
    expect(() => parseExpiry('1mo', now)).toThrow(
      /^Expiry must be 'never' or a duration .*months have no fixed length/,
    );
    expect(() => parseExpiry('9000y', now)).toThrow(/Expiry is too long/);
    expect(parseScopes(['mcp:*', 'playbooks:playbook:approve'])).toEqual([
      { subject: '', object: 'mcp', action: '*' },
      { subject: '', object: 'playbooks', action: 'playbook:approve' },
    ]);
    expect(() => parseScopes(['catalog'])).toThrow(/OBJECT:ACTION/);
    expect(() => parseScopes(['catalog:playbook:run'])).toThrow(/not allowed/);
    expect(() => parseScopes(['secrets:read'])).toThrow(/Unknown scope object/);
  });
});
