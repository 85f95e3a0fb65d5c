/**
 * `junit`: runs a test script and reads the JUnit XML it writes, one result per test case (each
 * recorded as its own check of the canary); the check fails when any case failed or errored.
 * The ecosystem runs the tests in a Kubernetes pod (`spec`); this product runs no pods, so a
 * `spec` is refused and the tests are given as a `script` run like an exec check's, in its own
 * working directory, with `testResults` (default `junit-results`) relative to it.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { elapsedSince, errorText, failing, invalidResult, passing } from './check-result.js';
import { EXEC_DEFAULT_PATH, runScript } from './exec.js';
import { baseSpecShape, namedValueField, parseSpec, resolveValue, textField } from './spec-fields.js';
import { CheckSpecError, type CheckContext, type CheckResult, type CheckType } from './types.js';

const junitSpecSchema = z.looseObject({
  ...baseSpecShape,
  script: textField.optional(),
  testResults: textField.optional(),
  env: z.array(namedValueField).optional(),
  spec: z.looseObject({}).optional(),
});
export type JunitCheckSpec = z.infer<typeof junitSpecSchema>;

export type JunitCase = {
  name: string;
  classname: string;
  duration: number;
  status: 'passed' | 'failed' | 'skipped';
  message: string;
};

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g))
    out[match[1]] = decodeEntities(match[3] ?? match[4] ?? '');
  return out;
}

/** The test cases of a JUnit XML document (`<testsuites>`, `<testsuite>` and `<testcase>`). */
export function parseJunitXml(xml: string): JunitCase[] {
  if (!/<testsuites?\b/.test(xml)) throw new Error('not a JUnit XML document (no <testsuite>)');
  const cases: JunitCase[] = [];
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = attributes(match[1]);
    const body = match[3] ?? '';
    const failure = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/.exec(body);
    const skipped = /<skipped\b/.test(body);
    const failureAttrs = failure ? attributes(failure[2]) : {};
    cases.push({
      name: attrs.name ?? '',
      classname: attrs.classname ?? '',
      duration: Math.round(Number(attrs.time ?? 0) * 1000) || 0,
      status: failure ? 'failed' : skipped ? 'skipped' : 'passed',
      message: failure ? (failureAttrs.message ?? decodeEntities(failure[3] ?? '').trim()) : '',
    });
  }
  return cases;
}

async function readResults(directory: string): Promise<JunitCase[]> {
  const names = (await readdir(directory)).filter((name) => name.toLowerCase().endsWith('.xml')).sort();
  if (names.length === 0) throw new Error(`no JUnit XML files in ${directory}`);
  const cases: JunitCase[] = [];
  for (const name of names) {
    try {
      cases.push(...parseJunitXml(await readFile(path.join(directory, name), 'utf8')));
    } catch (error) {
      throw new Error(`${name}: ${errorText(error)}`);
    }
  }
  return cases;
}

async function runJunitCheck(spec: JunitCheckSpec, ctx: CheckContext): Promise<CheckResult> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-junit-'));
  try {
    const resultsDir = path.resolve(workDir, spec.testResults ?? 'junit-results');
    const env: Record<string, string> = {
      PATH: EXEC_DEFAULT_PATH,
      HOME: workDir,
      TMPDIR: workDir,
      JUNIT_RESULTS: resultsDir,
    };
    for (const variable of spec.env ?? [])
      env[variable.name] = (await resolveValue(variable, ctx, `env.${variable.name}`)) ?? '';
    const started = performance.now();
    const outcome = await runScript(
      `mkdir -p "$JUNIT_RESULTS"\n${spec.script ?? ''}`,
      env,
      workDir,
      ctx.signal,
    );
    const duration = elapsedSince(started);
    if (outcome.killed) return failing(passing({ duration }), `tests were stopped after ${ctx.timeoutMs}ms`);
    let cases: JunitCase[];
    try {
      cases = await readResults(resultsDir);
    } catch (error) {
      const reason =
        outcome.exitCode !== 0 ? `${outcome.stderr.trim() || `exit code ${outcome.exitCode}`}; ` : '';
      return failing(passing({ duration }), `${reason}${errorText(error)}`);
    }
    const passed = cases.filter((item) => item.status === 'passed').length;
    const failed = cases.filter((item) => item.status === 'failed').length;
    const skipped = cases.filter((item) => item.status === 'skipped').length;
    const results = {
      passed,
      failed,
      skipped,
      total: cases.length,
      tests: cases.map((item) => ({ ...item })),
    };
    const result = passing({
      duration,
      message: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
      data: { results, ...results },
      detail: results,
      metrics: [],
      children: cases
        .filter((item) => item.status !== 'skipped')
        .map((item) => ({
          name: item.classname ? `${item.classname}/${item.name}` : item.name,
          pass: item.status === 'passed',
          message: item.status === 'passed' ? 'passed' : '',
          error: item.message,
          duration: item.duration,
          description: `JUnit test case of ${spec.name}`,
        })),
    });
    if (failed > 0)
      return failing(
        result,
        `${failed} of ${cases.length} tests failed: ${cases
          .filter((item) => item.status === 'failed')
          .map((item) => item.name)
          .join(', ')}`,
      );
    return result;
  } catch (error) {
    return invalidResult(`could not run the junit tests: ${errorText(error)}`);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export const junitCheck: CheckType<JunitCheckSpec> = {
  type: 'junit',
  specKey: 'junit',
  schema: junitSpecSchema,
  parse: (raw) => {
    const spec = parseSpec(junitSpecSchema, raw, 'junit');
    if (spec.spec)
      throw new CheckSpecError(
        'invalid junit check: spec: running tests in a Kubernetes pod is not supported; give the tests as a script that writes JUnit XML to $JUNIT_RESULTS',
      );
    if (!spec.script?.trim()) throw new CheckSpecError('invalid junit check: script: a script is required');
    return spec;
  },
  endpoint: (spec) => (spec.script ?? '').split('\n')[0].slice(0, 200),
  run: runJunitCheck,
};
