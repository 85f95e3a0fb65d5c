import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { passing } from './check-result.js';
import { listCanaryChecks } from './canary-checks.js';
import {
  CHECK_TYPE_NOT_SUPPORTED_MESSAGE,
  SUPPORTED_CHECK_TYPES,
  UNSUPPORTED_CHECK_TYPES,
  findCheckType,
} from './registry.js';
import { runCheck, runCheckOfType, type RunCheckOptions } from './run-check.js';
import { baseSpecShape, parseSpec } from './spec-fields.js';
import type { CheckContext, CheckResult, CheckSpecBase, CheckType } from './types.js';

const options: RunCheckOptions = {
  canary: { id: 'c-1', name: 'web', namespace: 'prod', labels: { team: 'ops' } },
  logger: pino({ level: 'silent' }),
  resolveConnection: () => undefined,
  timeoutMs: 2_000,
};

const fakeSchema = z.looseObject(baseSpecShape);

function fakeType(run: (spec: CheckSpecBase, ctx: CheckContext) => Promise<CheckResult>): CheckType {
  return {
    type: 'fake',
    specKey: 'fake',
    parse: (raw) => parseSpec(fakeSchema, raw, 'fake'),
    endpoint: () => 'fake://target',
    run,
  };
}

const answering = (result: Partial<CheckResult>) => fakeType(async () => passing(result));

describe('the registry', () => {
  it('lists supported and known-but-unsupported types', () => {
    expect(SUPPORTED_CHECK_TYPES).toEqual([
      'http',
      'tcp',
      'dns',
      'icmp',
      'exec',
      'postgres',
      'mysql',
      'redis',
      'folder',
      'sftp',
      'prometheus',
      'alertmanager',
      'ldap',
      'webhook',
      'junit',
      'restic',
      'elasticsearch',
      'opensearch',
      's3',
    ]);
    expect(UNSUPPORTED_CHECK_TYPES).toEqual(expect.arrayContaining(['kubernetes', 'mongodb']));
    expect(SUPPORTED_CHECK_TYPES.filter((type) => UNSUPPORTED_CHECK_TYPES.includes(type))).toEqual([]);
    expect(findCheckType('postgres')?.specKey).toBe('postgres');
    expect(findCheckType('kubernetes')).toBeUndefined();
  });

  it('answers an unsupported type with an invalid result, never a pass', async () => {
    const run = await runCheck('kubernetes', { name: 'pods', kind: 'Pod' }, options);
    expect(run).toMatchObject({ type: 'kubernetes', name: 'pods', attempts: 0 });
    expect(run.result).toMatchObject({
      pass: false,
      invalid: true,
      message: CHECK_TYPE_NOT_SUPPORTED_MESSAGE,
    });
    expect(Number.isNaN(Date.parse(run.startedAt))).toBe(false);
  });

  it('turns a bad spec into an invalid result naming the field', async () => {
    const run = await runCheck('http', { name: 'x', responseCodes: ['two hundred'] }, options);
    expect(run.result.invalid).toBe(true);
    expect(run.result.error).toMatch(/^invalid http check: responseCodes\.0: /);
    const noName = await runCheck('tcp', { endpoint: 'localhost:1' }, options);
    expect(noName.result.error).toMatch(/invalid tcp check: name: /);
  });

  it('converts a thrown error into a failed result with its message', async () => {
    const type = fakeType(async () => {
      throw new Error('socket exploded');
    });
    const run = await runCheckOfType(type, { name: 'boom' }, options);
    expect(run.result).toMatchObject({ pass: false, error: 'socket exploded' });
    expect(run.result.invalid).toBeUndefined();
  });

  it('stops a check that never settles at the deadline and aborts its signal', async () => {
    let aborted = false;
    const type = fakeType(
      (_spec, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener('abort', () => (aborted = true));
        }),
    );
    const started = Date.now();
    const run = await runCheckOfType(type, { name: 'hung' }, { ...options, timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(run.result).toMatchObject({ pass: false, error: 'check timed out after 150ms' });
    expect(aborted).toBe(true);
  });

  it('lets a caller cancel a running check', async () => {
    const controller = new AbortController();
    const type = fakeType(() => new Promise(() => undefined));
    const pending = runCheckOfType(
      type,
      { name: 'cancel-me' },
      { ...options, signal: controller.signal, timeoutMs: 60_000 },
    );
    setTimeout(() => controller.abort(), 50);
    const run = await pending;
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/cancelled/);
  });
});

describe('test and display', () => {
  const http200 = answering({ data: { code: 200, json: { status: 'ok', items: [1, 2] } } });

  it('fails a passing check when the test is false, in each language', async () => {
    for (const test of [
      { expr: 'code == 500' },
      { template: '{{ eq .code 500 }}' },
      { javascript: 'code === 500' },
    ]) {
      const run = await runCheckOfType(http200, { name: 'api', test }, options);
      expect(run.result, JSON.stringify(test)).toMatchObject({
        pass: false,
        error: 'test expression returned false',
      });
    }
    for (const test of [
      { expr: "code == 200 && json.status == 'ok'" },
      { template: '{{ eq .code 200 }}' },
      { javascript: 'json.items.length === 2' },
    ]) {
      const run = await runCheckOfType(http200, { name: 'api', test }, options);
      expect(run.result.pass, JSON.stringify(test)).toBe(true);
    }
  });

  it('never turns a failed check into a passing one', async () => {
    const failed = answering({ pass: false, error: 'expected 500 to be 200..299', data: { code: 500 } });
    const run = await runCheckOfType(failed, { name: 'api', test: { expr: 'true' } }, options);
    expect(run.result).toMatchObject({ pass: false, error: 'expected 500 to be 200..299' });
  });

  it('fails on a non-boolean test and on an expression error, naming the expression', async () => {
    const notBool = await runCheckOfType(http200, { name: 'api', test: { expr: 'json.status' } }, options);
    expect(notBool.result.error).toBe('test expression did not return a boolean value. got ok');
    const broken = await runCheckOfType(http200, { name: 'api', test: { expr: 'code ==' } }, options);
    expect(broken.result.pass).toBe(false);
    expect(broken.result.error).toMatch(/^CEL expression failed: syntax error: .*\(expression: code ==\)$/);
  });

  it('sets the message from display and exposes check and canary variables', async () => {
    const run = await runCheckOfType(
      http200,
      {
        name: 'api',
        labels: { tier: 'edge' },
        display: {
          template:
            '{{ .canary.namespace }}/{{ .canary.name }} {{ .check.name }}[{{ .check.labels.tier }}] -> {{ .code }} {{ .check.endpoint }}',
        },
      },
      options,
    );
    expect(run.result.message).toBe('prod/web api[edge] -> 200 fake://target');
    const cel = await runCheckOfType(
      http200,
      { name: 'api', display: { expr: "'items: ' + string(json.items.size())" } },
      options,
    );
    expect(cel.result.message).toBe('items: 2');
  });
});

describe('transform', () => {
  const rows = answering({
    data: {
      results: {
        rows: [
          { name: 'disk', used: 91 },
          { name: 'cpu', used: 20 },
        ],
        count: 2,
      },
    },
    detail: { rows: 2 },
  });

  it('fans out into derived checks named by the transform', async () => {
    const run = await runCheckOfType(
      rows,
      {
        name: 'capacity',
        icon: 'server',
        transform: {
          expr: "results.rows.map(r, {'name': r.name, 'pass': r.used < 90, 'message': string(r.used) + '%', 'labels': {'kind': 'usage'}})",
        },
      },
      options,
    );
    expect(run.result.pass).toBe(true);
    expect(run.result.detail).toBeUndefined();
    expect(run.derived).toHaveLength(2);
    expect(run.derived[0]).toMatchObject({
      name: 'disk',
      pass: false,
      message: '91%',
      type: 'fake',
      icon: 'server',
      endpoint: 'fake://target',
      labels: { kind: 'usage' },
    });
    expect(run.derived[1]).toMatchObject({ name: 'cpu', pass: true, message: '20%' });
  });

  it('patches the check itself when the transform returns one unnamed entry (JSON text from a template)', async () => {
    const run = await runCheckOfType(
      rows,
      {
        name: 'capacity',
        transform: {
          template:
            '{"pass": false, "message": "{{ len .results.rows }} resources", "detail": "$delete", "data": {"extra": 1}}',
        },
        display: { template: '{{ .extra }}' },
      },
      options,
    );
    expect(run.derived).toEqual([]);
    expect(run.result).toMatchObject({ pass: false, message: '1' });
    expect(run.result.detail).toBeUndefined();
    expect(run.result.data.results).toBeUndefined();
  });

  it('reports a transform that cannot be read as an invalid result', async () => {
    const notJson = await runCheckOfType(
      rows,
      { name: 'capacity', transform: { template: 'not json' } },
      options,
    );
    expect(notJson.result).toMatchObject({ pass: false, invalid: true });
    expect(notJson.result.error).toMatch(/^error transforming result: the transform did not return JSON/);
    const unnamed = await runCheckOfType(
      rows,
      { name: 'capacity', transform: { expr: '[{"pass": true}, {"pass": false}]' } },
      options,
    );
    expect(unnamed.result.error).toBe(
      'error transforming result: transformation returned more than 1 entry without a name',
    );
  });
});

describe('markFailOnEmpty', () => {
  it('fails an empty result only when asked to', async () => {
    const empty = answering({ empty: true, data: { results: { rows: [], count: 0 } } });
    expect((await runCheckOfType(empty, { name: 'q' }, options)).result.pass).toBe(true);
    const marked = await runCheckOfType(empty, { name: 'q', markFailOnEmpty: true }, options);
    expect(marked.result).toMatchObject({ pass: false, error: 'check returned an empty result' });
  });

  it('fails when a transform returns nothing', async () => {
    const rowsResult = answering({ data: { results: { rows: [] } } });
    const run = await runCheckOfType(
      rowsResult,
      { name: 'q', markFailOnEmpty: true, transform: { expr: 'results.rows' } },
      options,
    );
    expect(run.result).toMatchObject({ pass: false, error: 'transform returned an empty result' });
  });
});

describe('retries', () => {
  it('retries a failing check until it passes, recording the attempts', async () => {
    let calls = 0;
    const flaky = fakeType(async () => {
      calls += 1;
      return calls < 3
        ? { ...passing(), pass: false, error: `attempt ${calls} failed` }
        : passing({ message: 'ok' });
    });
    const run = await runCheckOfType(
      flaky,
      { name: 'flaky', retries: { maxRetries: 3, interval: '10ms' } },
      options,
    );
    expect(run.attempts).toBe(3);
    expect(run.result).toMatchObject({ pass: true, message: 'ok' });
    expect(run.result.data.retries).toMatchObject({ attempts: 3, retries: 2, maxRetries: 3 });
  });

  it('stops at maxRetries, uses canary defaults, and never retries an invalid result', async () => {
    let calls = 0;
    const failing = fakeType(async () => {
      calls += 1;
      return { ...passing(), pass: false, error: 'down' };
    });
    const run = await runCheckOfType(
      failing,
      { name: 'down' },
      { ...options, canary: { ...options.canary, retries: { maxRetries: 2, interval: '5ms' } } },
    );
    expect(run.attempts).toBe(3);
    expect(calls).toBe(3);
    const disabled = await runCheckOfType(
      failing,
      { name: 'down', retries: { disabled: true } },
      { ...options, canary: { ...options.canary, retries: { maxRetries: 2 } } },
    );
    expect(disabled.attempts).toBe(1);

    let invalidCalls = 0;
    const invalid = fakeType(async () => {
      invalidCalls += 1;
      return { ...passing(), pass: false, invalid: true, error: 'bad' };
    });
    await runCheckOfType(invalid, { name: 'bad', retries: { maxRetries: 5, interval: '1ms' } }, options);
    expect(invalidCalls).toBe(1);
    const badPolicy = await runCheckOfType(invalid, { name: 'bad', retries: { interval: 'soon' } }, options);
    expect(badPolicy.result.error).toMatch(/"soon" is not a duration/);
  });
});

describe('listCanaryChecks', () => {
  it('lists every check of a canary spec, marking the ones that do not run', () => {
    const entries = listCanaryChecks({
      schedule: '@every 1m',
      env: { region: { value: 'eu' } },
      http: [{ name: 'home', url: 'https://example.com' }, { url: 'https://example.org' }],
      kubernetes: [{ name: 'pods', kind: 'Pod' }],
      webhook: { name: 'hook' },
      somethingNew: [{ name: 'future' }],
      notChecks: 'text',
    });
    expect(
      entries.map(({ specKey, type, index, name, supported }) => ({ specKey, type, index, name, supported })),
    ).toEqual([
      { specKey: 'http', type: 'http', index: 0, name: 'home', supported: true },
      { specKey: 'http', type: 'http', index: 1, name: 'http-2', supported: true },
      { specKey: 'kubernetes', type: 'kubernetes', index: 0, name: 'pods', supported: false },
      { specKey: 'webhook', type: 'webhook', index: 0, name: 'hook', supported: true },
      { specKey: 'somethingNew', type: 'somethingNew', index: 0, name: 'future', supported: false },
    ]);
    expect(listCanaryChecks(null)).toEqual([]);
  });
});
