import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The checkout (or installed package) root: three levels above this file in src/ and dist/. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], {
    error: 'must be one of true, false, 1, 0, yes, no',
  })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** Names proxy-addr (Fastify's trustProxy) knows for address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUSTED_PROXIES entry: an IP address, a CIDR range (10.0.0.0/8, fd00::/8) or a range name. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const proxyList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .refine((entries) => entries.every(isProxyEntry), {
    message: `must be a comma-separated list of IP addresses, CIDR ranges (10.0.0.0/8) or ${PROXY_RANGE_NAMES.join(', ')}`,
  });

const environmentSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be an integer')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).optional(),
  ADMIN_EMAIL: z.email('must be an email address').optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DEMO: booleanFromEnv.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  WORKERS: booleanFromEnv.default(true),
  SECRET_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  RESOURCES_DIR: z.string().min(1).optional(),
  JOB_HISTORY_RETENTION_DAYS: z.coerce.number().positive('must be a positive number of days').default(30),
  EVENT_QUEUE_RETENTION_DAYS: z.coerce.number().positive('must be a positive number of days').default(7),
  TRUSTED_PROXIES: proxyList.optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  DATA_API_MAX_ROWS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be between 1 and 1000000')
    .max(1_000_000, 'must be between 1 and 1000000')
    .default(1000),
});

/** The platform's settings (the app's whole configuration, with each module's, is `../config.ts`). */
export interface PlatformConfig {
  port: number;
  host: string;
  /** External PostgreSQL; when absent the embedded server in `dataDir` is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  demo: boolean;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  webDistDir: string;
  migrationsDir: string;
  dbPoolSize: number;
  shutdownGraceMs: number;
  /** Run schedulers and queue consumers in this process (default true). */
  workers: boolean;
  /** Encrypts secrets at rest; generated into DATA_DIR when absent. */
  secretKey: string | undefined;
  /** A directory of YAML resources, loaded at start and watched. */
  resourcesDir: string | undefined;
  /** Finished job history older than this many days is deleted (default 30). */
  jobHistoryRetentionDays: number;
  /** Events nobody handled within this many days are deleted (default 7). */
  eventQueueRetentionDays: number;
  demoDir: string;
  /**
   * Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (the
   * client address for sign-in throttling, https for the Secure cookie flag); none by default.
   */
  trustedProxies: string[];
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  metricsToken: string | undefined;
  /**
   * The most rows one data API response holds, at the top level and in each embedded array
   * (PostgREST's `db-max-rows`; default 1000). Content-Range and counts still report the total.
   */
  dataApiMaxRows: number;
  /**
   * Serve HTTPS with this PEM certificate chain and key (TLS_CERT_FILE and TLS_KEY_FILE, both or
   * neither). kubectl sends credentials only over HTTPS, so its kubeconfig needs it (or a proxy).
   */
  tls: { cert: string; key: string } | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads the platform's settings from environment variables; throws ConfigError naming each bad variable. */
export function loadPlatformConfig(environment: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const present = Object.fromEntries(
    Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const tls = readTlsFiles(env.TLS_CERT_FILE, env.TLS_KEY_FILE);
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(PROJECT_ROOT, '.data')),
    adminEmail: env.ADMIN_EMAIL,
    adminPassword: env.ADMIN_PASSWORD,
    demo: env.DEMO,
    logLevel: env.LOG_LEVEL,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(PROJECT_ROOT, 'apps/web/dist')),
    migrationsDir: path.join(PROJECT_ROOT, 'apps/server/migrations'),
    dbPoolSize: env.DB_POOL_SIZE,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    workers: env.WORKERS,
    secretKey: env.SECRET_KEY,
    resourcesDir: env.RESOURCES_DIR ? path.resolve(env.RESOURCES_DIR) : undefined,
    demoDir: path.join(PROJECT_ROOT, 'demo'),
    jobHistoryRetentionDays: env.JOB_HISTORY_RETENTION_DAYS,
    eventQueueRetentionDays: env.EVENT_QUEUE_RETENTION_DAYS,
    trustedProxies: env.TRUSTED_PROXIES ?? [],
    metricsToken: env.METRICS_TOKEN,
    dataApiMaxRows: env.DATA_API_MAX_ROWS,
    tls,
  };
}

/** The PEM texts of TLS_CERT_FILE and TLS_KEY_FILE; a ConfigError names what is missing or unreadable. */
function readTlsFiles(certFile: string | undefined, keyFile: string | undefined): PlatformConfig['tls'] {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new ConfigError([
      `${certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'}: is required when ${certFile ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'} is set`,
    ]);
  const read = (variable: string, file: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError([
        `${variable}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      ]);
    }
  };
  const cert = read('TLS_CERT_FILE', certFile);
  const key = read('TLS_KEY_FILE', keyFile);
  if (!cert.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError([`TLS_CERT_FILE: ${certFile} holds no PEM certificate`]);
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key))
    throw new ConfigError([`TLS_KEY_FILE: ${keyFile} holds no PEM private key`]);
  return { cert, key };
}
