/**
 * `restic`: a restic repository's latest snapshot is younger than `maxAge`, and with
 * `checkIntegrity` the repository passes `restic check`. Runs the `restic` binary (Debian's
 * package) with only the environment it needs. Repositories on S3 (`accessKey`, `secretKey`,
 * `awsConnectionName`) are refused until they can be tested here.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import { EXEC_DEFAULT_PATH } from './exec.js';
import {
  baseSpecShape,
  booleanField,
  formatAge,
  parseDuration,
  parseSpec,
  resolveValue,
  textField,
  valueSourceField,
} from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const resticSpecSchema = z.looseObject({
  ...baseSpecShape,
  repository: textField.pipe(z.string().min(1, 'a repository is required')),
  password: valueSourceField.optional(),
  maxAge: textField.optional(),
  checkIntegrity: booleanField.optional(),
  caCert: textField.optional(),
  accessKey: valueSourceField.optional(),
  secretKey: valueSourceField.optional(),
  awsConnectionName: textField.optional(),
  connection: textField.optional(),
});
export type ResticCheckSpec = z.infer<typeof resticSpecSchema>;

interface Snapshot {
  time: string;
  id: string;
  short_id?: string;
  hostname?: string;
  paths?: string[];
}

function restic(
  args: string[],
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    execFile('restic', args, { env, signal, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new Error('the restic binary is not installed on this server'));
        return;
      }
      if (error && signal.aborted) {
        reject(new Error('restic was stopped'));
        return;
      }
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ stdout, stderr, code });
    });
  });
}

async function runResticCheck(spec: ResticCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const started = performance.now();
  const home = await mkdtemp(path.join(tmpdir(), 'opsdeck-restic-'));
  try {
    const password = await resolveValue(spec.password, ctx, 'password');
    if (!password) return invalidResult('password: the repository password is required');
    const env: Record<string, string> = {
      PATH: EXEC_DEFAULT_PATH,
      HOME: home,
      RESTIC_PASSWORD: password,
      RESTIC_CACHE_DIR: path.join(home, 'cache'),
    };
    const args = ['--repo', spec.repository, '--no-lock'];
    if (spec.caCert) {
      const file = path.join(home, 'ca.pem');
      await writeFile(file, spec.caCert);
      args.push('--cacert', file);
    }
    const listing = await restic([...args, 'snapshots', '--json'], env, ctx.signal);
    if (listing.code !== 0) {
      return failing(
        passing({ duration: elapsedSince(started) }),
        `restic snapshots: ${listing.stderr.trim() || `exit code ${listing.code}`}`,
      );
    }
    const snapshots = (JSON.parse(listing.stdout || '[]') as Snapshot[] | null) ?? [];
    const latest = snapshots.reduce<Snapshot | undefined>(
      (newest, item) => (!newest || Date.parse(item.time) > Date.parse(newest.time) ? item : newest),
      undefined,
    );
    const ageMs = latest ? Date.now() - Date.parse(latest.time) : null;
    let integrity: string | null = null;
    if (spec.checkIntegrity) {
      const check = await restic([...args.filter((arg) => arg !== '--no-lock'), 'check'], env, ctx.signal);
      integrity =
        check.code === 0 ? 'ok' : check.stderr.trim() || check.stdout.trim() || `exit code ${check.code}`;
    }
    const results = {
      count: snapshots.length,
      latest: latest
        ? {
            id: latest.short_id ?? latest.id,
            time: latest.time,
            hostname: latest.hostname ?? '',
            paths: latest.paths ?? [],
          }
        : null,
      ageMs,
      integrity,
    };
    let result = passing({
      duration: elapsedSince(started),
      message: latest ? `latest snapshot ${results.latest?.id} ${formatAge(ageMs ?? 0)} ago` : 'no snapshots',
      data: { results },
      detail: results,
      empty: snapshots.length === 0,
    });
    if (!latest) result = failing(result, `no snapshots in ${spec.repository}`);
    else if (spec.maxAge && (ageMs ?? 0) > parseDuration(spec.maxAge))
      result = failing(result, `latest snapshot is too old: ${formatAge(ageMs ?? 0)} > ${spec.maxAge}`);
    if (integrity !== null && integrity !== 'ok')
      result = failing(result, `integrity check failed: ${integrity}`);
    return result;
  } catch (error) {
    return failing(passing({ duration: elapsedSince(started) }), errorText(error));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

export const resticCheck: CheckType<ResticCheckSpec> = {
  type: 'restic',
  specKey: 'restic',
  schema: resticSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(resticSpecSchema, raw, 'restic');
    if (spec.maxAge) parseDuration(spec.maxAge);
    if (spec.accessKey || spec.secretKey || spec.awsConnectionName || spec.connection)
      throw new CheckSpecError(
        'invalid restic check: repositories on S3 (accessKey, secretKey, awsConnectionName, connection) are not supported; use a local or rest: repository',
      );
    return spec;
  },
  endpoint: (spec) => spec.repository,
  run: runResticCheck,
};
