import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import { baseSpecShape, namedValueField, parseSpec, resolveValue, textField } from './spec-fields.js';
import type { CheckContext, CheckResult, CheckType } from './types.js';

const execSpecSchema = z.looseObject({
  ...baseSpecShape,
  script: textField.pipe(z.string().refine((text) => text.trim() !== '', 'a script is required')),
  env: z.array(namedValueField).optional(),
  connections: z.looseObject({}).optional(),
  checkout: z.looseObject({}).optional(),
  artifacts: z.array(z.unknown()).optional(),
});

export type ExecCheckSpec = z.infer<typeof execSpecSchema>;

/**
 * The only inherited setting: a conventional PATH so scripts find standard tools. Nothing of the
 * server's own environment (database URLs, keys) reaches a script.
 */
export const EXEC_DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const MAX_OUTPUT_BYTES = 1024 * 1024;
const BASH = '/bin/bash';

interface ProcessOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  killed: boolean;
  outputTruncated: boolean;
}

function collect(stream: NodeJS.ReadableStream, onTruncate: () => void): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= MAX_OUTPUT_BYTES) return;
    const room = MAX_OUTPUT_BYTES - size;
    if (chunk.length > room) onTruncate();
    chunks.push(chunk.subarray(0, room));
    size += Math.min(chunk.length, room);
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // The script runs in its own process group, so its children die with it.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function runScript(
  script: string,
  env: Record<string, string>,
  cwd: string,
  signal: AbortSignal,
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(BASH, ['-c', script], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let truncated = false;
    const stdout = collect(child.stdout, () => (truncated = true));
    const stderr = collect(child.stderr, () => (truncated = true));
    let killed = false;
    const onAbort = () => {
      killed = true;
      killGroup(child.pid);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, exitSignal) => {
      signal.removeEventListener('abort', onAbort);
      // Background children that outlive the script would keep running; they go with the group.
      killGroup(child.pid);
      resolve({
        exitCode: code ?? (exitSignal ? 128 + (osConstants.signals[exitSignal] ?? 0) : -1),
        stdout: stdout(),
        stderr: stderr(),
        killed,
        outputTruncated: truncated,
      });
    });
  });
}

async function runExecCheck(spec: ExecCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  if (spec.connections && Object.keys(spec.connections).length > 0) {
    return invalidResult('exec connections (aws, gcp, azure) are not supported yet');
  }
  if (spec.checkout) return invalidResult('exec checkout of git repositories is not supported yet');
  const workDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-exec-'));
  try {
    const env: Record<string, string> = { PATH: EXEC_DEFAULT_PATH, HOME: workDir, TMPDIR: workDir };
    for (const variable of spec.env ?? []) {
      env[variable.name] = (await resolveValue(variable, ctx, `env.${variable.name}`)) ?? '';
    }
    const started = performance.now();
    let outcome: ProcessOutcome;
    try {
      outcome = await runScript(spec.script, env, workDir, ctx.signal);
    } catch (error) {
      return invalidResult(`could not start bash: ${errorText(error)}`);
    }
    const duration = elapsedSince(started);
    const stdout = outcome.stdout.trim();
    const stderr = outcome.stderr.trim();
    const details = { stdout, stderr, exitCode: outcome.exitCode };
    const result = passing({
      duration,
      data: { ...details, results: details },
      detail: { ...details, outputTruncated: outcome.outputTruncated },
    });
    if (outcome.killed) return failing(result, `script was stopped after ${ctx.timeoutMs}ms`);
    if (outcome.exitCode !== 0)
      return failing(result, stderr !== '' ? stderr : `exit code ${outcome.exitCode}`);
    return result;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export const execCheck: CheckType<ExecCheckSpec> = {
  type: 'exec',
  specKey: 'exec',
  schema: execSpecSchema,
  parse: (raw) => parseSpec(execSpecSchema, raw, 'exec'),
  endpoint: (spec) => spec.script.split('\n')[0].slice(0, 200),
  run: runExecCheck,
};
