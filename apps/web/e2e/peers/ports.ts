/**
 * Ports of one e2e run, all derived from E2E_PORT so that runs on other E2E_PORTs never collide:
 * the Opsdeck server on E2E_PORT, the identity peer's SMTP server on E2E_PORT+1 and its HTTP
 * side (mail as JSON, the OpenID Connect provider) on E2E_PORT+2.
 */
export function e2ePorts(env: NodeJS.ProcessEnv = process.env) {
  const app = Number(env.E2E_PORT ?? 18080);
  return { app, smtp: app + 1, peerHttp: app + 2 };
}

/** What the Opsdeck server of the e2e run is told about the peer (OIDC_* and SMTP_URL). */
export function peerSettings(env: NodeJS.ProcessEnv = process.env) {
  const ports = e2ePorts(env);
  return {
    smtpUrl: `smtp://127.0.0.1:${ports.smtp}`,
    peerUrl: `http://127.0.0.1:${ports.peerHttp}`,
    oidc: {
      issuer: `http://127.0.0.1:${ports.peerHttp}`,
      clientId: 'opsdeck-e2e',
      clientSecret: 'opsdeck-e2e-client-secret',
      name: 'Example SSO',
      redirectUri: `http://localhost:${ports.app}/api/auth/self-service/oidc/callback`,
    },
  };
}
