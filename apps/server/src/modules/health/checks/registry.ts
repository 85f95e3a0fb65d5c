/**
 * The check types: which run (one file each), which the ecosystem has that do not run yet, and
 * the canary spec keys that are settings. Running a check: run-check.ts; a canary spec's checks:
 * canary-checks.ts.
 */
import { alertmanagerCheck } from './alertmanager.js';
import { dnsCheck } from './dns.js';
import { elasticsearchCheck, opensearchCheck } from './elasticsearch.js';
import { junitCheck } from './junit.js';
import { resticCheck } from './restic.js';
import { s3Check } from './s3.js';
import { execCheck } from './exec.js';
import { folderCheck } from './folder.js';
import { sftpCheck } from './sftp.js';
import { httpCheck } from './http.js';
import { icmpCheck } from './icmp.js';
import { ldapCheck } from './ldap.js';
import { mysqlCheck } from './mysql.js';
import { postgresCheck } from './postgres.js';
import { prometheusCheck } from './prometheus.js';
import { redisCheck } from './redis.js';
import { tcpCheck } from './tcp.js';
import type { CheckType } from './types.js';
import { webhookCheck } from './webhook.js';

/** Every check type that runs. Adding a type is one new file and one line here. */
export const CHECK_TYPES: readonly CheckType[] = [
  httpCheck,
  tcpCheck,
  dnsCheck,
  icmpCheck,
  execCheck,
  postgresCheck,
  mysqlCheck,
  redisCheck,
  folderCheck,
  sftpCheck,
  prometheusCheck,
  alertmanagerCheck,
  ldapCheck,
  webhookCheck,
  junitCheck,
  resticCheck,
  elasticsearchCheck,
  opensearchCheck,
  s3Check,
];

/** The types that run, by their type name. */
export const SUPPORTED_CHECK_TYPES: readonly string[] = CHECK_TYPES.map((checkType) => checkType.type);

/**
 * Canary spec keys of the ecosystem's other check types. Specs using them are stored and shown,
 * and their checks report CHECK_TYPE_NOT_SUPPORTED_MESSAGE.
 */
export const UNSUPPORTED_CHECK_TYPES: readonly string[] = [
  'awsConfig',
  'awsConfigRule',
  'azureDevops',
  'catalog',
  'cloudwatch',
  'containerd',
  'containerdPush',
  'databaseBackup',
  'docker',
  'dockerPush',
  'dynatrace',
  'gcsBucket',
  'github',
  'gitProtocol',
  'helm',
  'jmeter',
  'kubernetes',
  'kubernetesResource',
  'mongodb',
  'mssql',
  'namespace',
  'pod',
  'pubsub',
  'smb',
];

/** Keys of a canary spec that configure the canary rather than list checks. */
export const CANARY_SETTING_KEYS: readonly string[] = [
  'env',
  'icon',
  'interval',
  'owner',
  'replicas',
  'resultMode',
  'retries',
  'schedule',
  'severity',
];

export const CHECK_TYPE_NOT_SUPPORTED_MESSAGE = 'check type not supported yet';

/**
 * Why some of the ecosystem's types are refused, when there is more to say than "not yet": their
 * specs are stored and shown, and each check reports this reason instead of running.
 */
export const UNSUPPORTED_CHECK_REASONS: Readonly<Record<string, string>> = {
  mongodb:
    "mongodb checks are not supported: the MongoDB wire protocol client is not bundled and no MongoDB server can be tested on this product's machines",
  mssql:
    "mssql checks are not supported: the TDS (SQL Server) protocol client is not bundled and no SQL Server can be tested on this product's machines",
  databaseBackup:
    'databaseBackup checks are not supported: they read cloud backup APIs (GCP Cloud SQL), which cannot be reached or tested here',
};

/** The message a check of an unsupported type reports. */
export function unsupportedCheckMessage(type: string): string {
  return UNSUPPORTED_CHECK_REASONS[type] ?? CHECK_TYPE_NOT_SUPPORTED_MESSAGE;
}

/** Types whose results are pushed (webhook): scheduled runs and Run Now leave them out. */
export function isPushedCheckType(typeOrSpecKey: string): boolean {
  return findCheckType(typeOrSpecKey)?.pushed === true;
}

/** The check type for a type name or canary spec key ('http', 'postgres', ...). */
export function findCheckType(typeOrSpecKey: string): CheckType | undefined {
  return CHECK_TYPES.find(
    (checkType) => checkType.type === typeOrSpecKey || checkType.specKey === typeOrSpecKey,
  );
}
