/**
 * The check types: which run (one file each), which the ecosystem has that do not run yet, and
 * the canary spec keys that are settings. Running a check: run-check.ts; a canary spec's checks:
 * canary-checks.ts.
 */
import { alertmanagerCheck } from './alertmanager.js';
import { dnsCheck } from './dns.js';
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
  'elasticsearch',
  'gcsBucket',
  'github',
  'gitProtocol',
  'helm',
  'jmeter',
  'junit',
  'kubernetes',
  'kubernetesResource',
  'mongodb',
  'mssql',
  'namespace',
  'opensearch',
  'pod',
  'pubsub',
  'restic',
  's3',
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
