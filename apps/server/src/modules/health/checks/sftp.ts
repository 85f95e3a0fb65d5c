import { z } from 'zod';
import { folderFields, runSftpFolderCheck, validateFolderRules } from './folder.js';
import { sftpConnectionSchema, sftpEndpoint, type SftpConnectionSpec } from './sftp-client.js';
import { parseSpec } from './spec-fields.js';
import type { CheckType } from './types.js';

/**
 * The ecosystem's `sftp:` check type (the editors' "SFTP" spec type): a folder on an SFTP
 * server, with the connection written inline (`host`, `port` default 22, `username`, `password`
 * as EnvVar values, or a named `connection`; older specs nest the credentials under `auth`) next
 * to `path` and the folder check's rules (`filter`, `minAge`, `maxAge`, `minCount`, `maxCount`,
 * `minSize`, `maxSize`, `availableSize`, `totalSize`, `recursive`). An `sftpConnection` block,
 * as a folder check writes it, is read too. It runs exactly as a folder check over SFTP.
 */
const sftpSpecSchema = z
  .looseObject({
    ...folderFields,
    ...sftpConnectionSchema.shape,
    sftpConnection: sftpConnectionSchema.optional(),
  })
  .superRefine((spec, ctx) => {
    const connection = spec.sftpConnection ?? spec;
    if (!connection.host?.trim() && !connection.connection?.trim() && !/^sftp:\/\/[^/]/i.test(spec.path)) {
      ctx.addIssue({ code: 'custom', path: ['host'], message: 'a host or connection is required' });
    }
  });

export type SftpCheckSpec = z.infer<typeof sftpSpecSchema>;

/** The connection of an `sftp` check: its `sftpConnection` block, else the fields written inline. */
function connectionOf(spec: SftpCheckSpec): SftpConnectionSpec {
  if (spec.sftpConnection) return spec.sftpConnection;
  const { connection, host, port, username, password, auth } = spec;
  return { connection, host, port, username, password, auth };
}

export const sftpCheck: CheckType<SftpCheckSpec> = {
  type: 'sftp',
  specKey: 'sftp',
  schema: sftpSpecSchema,
  parse: (raw) => validateFolderRules(parseSpec(sftpSpecSchema, raw, 'sftp')),
  endpoint: (spec) => {
    if (spec.path.toLowerCase().startsWith('sftp://')) return spec.path;
    const connection = connectionOf(spec);
    const host = connection.host?.trim();
    const slash = spec.path.startsWith('/') ? '' : '/';
    if (!host) return `${connection.connection ?? 'sftp:/'}${slash}${spec.path}`;
    return `sftp://${connection.port === undefined ? host : sftpEndpoint(host, connection.port)}${slash}${spec.path}`;
  },
  run: (spec, ctx) => runSftpFolderCheck(spec, connectionOf(spec), ctx),
};
