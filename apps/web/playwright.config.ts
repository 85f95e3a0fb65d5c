import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { e2ePorts, peerSettings } from './e2e/peers/ports';

const port = e2ePorts().app;
// SMTP on E2E_PORT+1, the peer's mail JSON and OpenID Connect provider on E2E_PORT+2.
const peer = peerSettings();
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = path.join(root, '.test-data', `e2e-${port}`);

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(root, 'test-results'),
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  // Started in this order: the Opsdeck server's SMTP_URL and OIDC_ISSUER point at the peer.
  webServer: [
    {
      // A real SMTP server and a real OpenID Connect provider (e2e/peers/identity-peer.ts).
      command: 'npx tsx apps/web/e2e/peers/identity-peer.ts',
      cwd: root,
      url: `${peer.peerUrl}/__peer/ready`,
      timeout: 60_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: { E2E_PORT: String(port) },
    },
    {
      // A real server on a fresh data directory with its own embedded PostgreSQL.
      command: `rm -rf "${dataDir}" && node bin/opsdeck.mjs serve`,
      cwd: root,
      url: `http://localhost:${port}/readyz`,
      timeout: 120_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        ADMIN_EMAIL: 'admin@example.com',
        ADMIN_PASSWORD: 'e2e-admin-password',
        LOG_LEVEL: 'warn',
        SMTP_URL: peer.smtpUrl,
        SMTP_FROM: 'Opsdeck <opsdeck@e2e.test>',
        OIDC_ISSUER: peer.oidc.issuer,
        OIDC_CLIENT_ID: peer.oidc.clientId,
        OIDC_CLIENT_SECRET: peer.oidc.clientSecret,
        OIDC_NAME: peer.oidc.name,
        // Every browser of the run comes from 127.0.0.1: allow more emails per client than the default.
        EMAIL_THROTTLE_CLIENT_MAX: '1000',
        // The logs journey writes its log files below the temporary folder (default /var/log only).
        LOG_FILE_ROOTS: `/var/log:${os.tmpdir()}`,
      },
    },
  ],
});
