import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { failureText, healthy, unhealthy, type ConnectionTester } from './types.js';

/** The Path exists on this server, is a directory and can be read. */
export const testFolder: ConnectionTester = async (connection) => {
  const path = connection.properties?.path ?? connection.url;
  if (!path) return unhealthy('the connection has no Path');
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return unhealthy(`${path} is not a folder`);
    await access(path, constants.R_OK | constants.X_OK);
    const entries = await readdir(path);
    return healthy(`${path} is readable (${entries.length} entries)`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') return unhealthy(`${path} does not exist`);
    if (code === 'EACCES') return unhealthy(`${path} cannot be read: permission denied`);
    return unhealthy(`${path} cannot be read: ${failureText(error, connection)}`);
  }
};
