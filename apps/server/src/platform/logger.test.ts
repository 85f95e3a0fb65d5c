import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from './logger.js';

describe('request logging', () => {
  it('never writes a credential passed in the query string (webhook pushes send ?token=)', async () => {
    const lines: string[] = [];
    const logger = pino(loggerOptions('info'), { write: (line: string) => void lines.push(line) });
    const app = Fastify({ loggerInstance: logger });
    app.post('/webhook/:id', async () => ({ ok: true }));
    await app.inject({ method: 'POST', url: '/webhook/deploy?token=s3cret-value&x=1', payload: {} });
    await app.close();
    const output = lines.join('');
    expect(output).toContain('/webhook/deploy?token=[redacted]&x=1');
    expect(output).not.toContain('s3cret-value');
  });

  it('redacts only the values of credential parameters', () => {
    expect(redactUrl('/a?Token=abc&name=token&api_key=k#f')).toBe(
      '/a?Token=[redacted]&name=token&api_key=[redacted]#f',
    );
    expect(redactUrl('/health?timeRange=1h')).toBe('/health?timeRange=1h');
  });
});
