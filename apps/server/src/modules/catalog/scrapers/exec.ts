import { spawn } from 'node:child_process';
import { parseDocuments } from './parse.js';
import {
  ScrapeError,
  stringField,
  type RawResult,
  type ScrapeContext,
  type Scraper,
  type ScraperEntry,
} from './types.js';

const SCRIPT_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

function envOf(value: unknown): Record<string, string> {
  const env: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') {
        const { name, value: itemValue } = item as { name: string; value?: unknown };
        env[name] = itemValue === undefined || itemValue === null ? '' : String(itemValue);
      }
    }
  }
  return env;
}

function run(script: string, env: Record<string, string>, context: ScrapeContext): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {
      cwd: context.baseDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let size = 0;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      kill();
      reject(new ScrapeError(`exec: the script timed out after ${SCRIPT_TIMEOUT_MS / 1000}s`));
    }, SCRIPT_TIMEOUT_MS);
    const onAbort = () => {
      kill();
      reject(new ScrapeError('exec: the script was stopped'));
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        kill();
        reject(new ScrapeError('exec: the script wrote more than 64 MiB'));
      } else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 64) stderr.push(chunk);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new ScrapeError(`exec: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      if (code !== 0) {
        const message = Buffer.concat(stderr).toString('utf8').trim().slice(0, 2000);
        reject(new ScrapeError(`exec: the script exited with code ${code}${message ? `: ${message}` : ''}`));
      } else resolve(Buffer.concat(stdout).toString('utf8'));
    });
  });
}

/**
 * `exec`: runs `script` with bash and reads its standard output as JSON (a list gives one item
 * per element). Output that is not JSON fails the run.
 */
export const execScraper: Scraper = {
  type: 'exec',
  async scrape(entry: ScraperEntry, context: ScrapeContext): Promise<RawResult[]> {
    const script = stringField(entry, 'script');
    if (!script) throw new ScrapeError('exec: script is required');
    const output = await run(script, envOf(entry.env), context);
    const format = entry.format === 'yaml' ? 'yaml' : 'json';
    const [document = null] = parseDocuments(output, format, 'exec: the script output');
    const documents = Array.isArray(document) ? document : [document];
    return documents.map((config) => ({ config, source: 'exec' }));
  },
};
