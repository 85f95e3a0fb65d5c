import { Client } from 'ssh2';
import { failureText, healthy, unhealthy, type ConnectionTester } from './types.js';

/** Logs in to Host:Port (default 22) with the username and password and lists the home folder over SFTP. */
export const testSftp: ConnectionTester = (connection, timeoutMs) => {
  const host = connection.properties?.host;
  if (!host) return Promise.resolve(unhealthy('the connection has no Host'));
  const port = Number(connection.properties?.port || '22');
  return new Promise((resolve) => {
    const client = new Client();
    let settled = false;
    const finish = (outcome: ReturnType<typeof healthy>) => {
      if (settled) return;
      settled = true;
      client.end();
      resolve(outcome);
    };
    client.on('ready', () => {
      client.sftp((error, sftp) => {
        if (error)
          return finish(unhealthy(`logged in, but SFTP is refused: ${failureText(error, connection)}`));
        sftp.readdir('.', (readError, entries) => {
          if (readError)
            finish(
              unhealthy(
                `logged in, but the home folder cannot be listed: ${failureText(readError, connection)}`,
              ),
            );
          else finish(healthy(`connected to ${host}:${port} (${entries.length} entries in the home folder)`));
        });
      });
    });
    client.on('error', (error) => {
      const level = (error as { level?: string }).level;
      const what =
        level === 'client-authentication'
          ? 'the server refused the username or password'
          : failureText(error, connection);
      finish(unhealthy(`could not connect to ${host}:${port}: ${what}`));
    });
    client.connect({
      host,
      port,
      username: connection.username ?? '',
      password: connection.password ?? '',
      readyTimeout: timeoutMs,
      tryKeyboard: false,
    });
  });
};
