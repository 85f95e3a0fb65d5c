import { connectionTypeOf } from '@opsdeck/contracts';
import type { OpenedConnection } from '../connection-resolver.js';
import { testFolder } from './folder.js';
import { testGit } from './git.js';
import { testHttp } from './http.js';
import { testLdap } from './ldap.js';
import { testMysql } from './mysql.js';
import { testPostgres } from './postgres.js';
import { testRedis } from './redis.js';
import { testSftp } from './sftp.js';
import { testSmtp } from './smtp.js';
import type { ConnectionTester, TesterOutcome } from './types.js';

export type { TesterOutcome } from './types.js';

/** The types this server can connect to, by the catalogue's type name. */
const TESTERS: Record<string, ConnectionTester> = {
  postgres: testPostgres,
  mysql: testMysql,
  redis: testRedis,
  http: testHttp,
  prometheus: testHttp,
  elasticsearch: testHttp,
  ldap: testLdap,
  email: testSmtp,
  git: testGit,
  folder: testFolder,
  sftp: testSftp,
};

export const TESTABLE_CONNECTION_TYPES: readonly string[] = Object.keys(TESTERS);

/** Tests one opened connection; types without a peer here say so plainly (status unknown). */
export async function testOpenedConnection(
  connection: OpenedConnection,
  timeoutMs: number,
): Promise<TesterOutcome> {
  const type = connection.type ?? '';
  const tester = TESTERS[type];
  if (!tester) {
    const label = connectionTypeOf(type)?.label ?? type;
    return {
      status: 'unknown',
      message: `${label} connections cannot be tested from here: the settings are saved, but nothing was connected to`,
    };
  }
  return tester(connection, timeoutMs);
}
