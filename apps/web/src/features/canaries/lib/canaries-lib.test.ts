import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  CHECK_FORMS,
  LABELS_MESSAGE,
  NUMBER_MESSAGE,
  REQUIRED_MESSAGE,
  SPEC_MESSAGE,
  chooseSpecType,
  fieldValue,
  firstCheck,
  readEditor,
  setCheckField,
  setSchedule,
  validateCheck,
  type CanarySpec,
  type CheckField,
} from './check-forms';
import { checkTypesOf, detectSpecType } from './spec-types';

const field = (type: string, key: string): CheckField => {
  const found = CHECK_FORMS[type]?.find((candidate) => candidate.key === key);
  if (!found) throw new Error(`no ${type}.${key}`);
  return found;
};

/** What the Code tab shows after form edits, read back: the form and the YAML are one document. */
const roundTrip = (spec: CanarySpec): CanarySpec => parse(stringify(spec)) as CanarySpec;

describe('spec type detection (settings §4)', () => {
  it('takes the check type the spec holds, skipping the schedule and the canary settings', () => {
    expect(detectSpecType({ schedule: '@every 1m', severity: 'high', tcp: [{ endpoint: 'a:1' }] }).key).toBe(
      'tcp',
    );
    expect(detectSpecType({ interval: 30, exec: [{ script: 'true' }] }).label).toBe('Exec');
  });

  it('does not depend on key order: jsonb stores short keys first', () => {
    // As the server returns a folder canary: jsonb orders keys by length, so `retries` and an
    // empty `http` list may come before the folder checks.
    const fromServer = {
      http: [],
      folder: [{ name: 'uploads', path: '/upload', sftpConnection: { host: 'h' } }],
      retries: { maxRetries: 2 },
      schedule: '@every 5m',
    };
    expect(detectSpecType(fromServer).key).toBe('folder');
    expect(
      detectSpecType({ retries: { maxRetries: 1 }, sftp: [{ name: 's', host: 'h', path: '/' }] }).key,
    ).toBe('sftp');
    expect(detectSpecType({ webhook: { name: 'hook' }, schedule: '@daily' }).key).toBe('webhook');
    // A type just picked (an empty list) still opens on its form.
    expect(detectSpecType({ schedule: '@daily', tcp: [] }).key).toBe('tcp');
  });

  it('opens a spec of several types on the preferred one, else the first in the picker order', () => {
    // As jsonb returns the demo canary written http-first: tcp comes first.
    const spec = { tcp: [{ endpoint: 'b:1' }], http: [{ url: 'a' }], schedule: '@every 1m' };
    expect(detectSpecType(spec).key).toBe('http');
    expect(detectSpecType(spec, 'tcp').key).toBe('tcp');
    // A preferred type the spec does not hold is ignored.
    expect(detectSpecType(spec, 'dns').key).toBe('http');
    expect(detectSpecType({ http: [], tcp: [] }).key).toBe('http');
  });

  it('falls back to custom when no type key is found or a key is not offered', () => {
    expect(detectSpecType({ schedule: '@every 1m' }).key).toBe('custom');
    expect(detectSpecType({ http: [{ url: 'a' }], kubernetes: [{ kind: 'Pod' }] }).key).toBe('custom');
    expect(detectSpecType({ kubernetes: [{}] }).key).toBe('custom');
    expect(detectSpecType(null).key).toBe('custom');
  });

  it('opens form types on the form and the others code-only', () => {
    expect(detectSpecType({ http: [] }).hasForm).toBe(true);
    expect(detectSpecType({ dns: [] }).hasForm).toBe(false);
    expect(checkTypesOf({ schedule: '@daily', http: [], tcp: [] })).toEqual(['http', 'tcp']);
  });
});

describe('form ↔ YAML mapping', () => {
  it('writes the first check of the type and keeps every other key and check', () => {
    const spec: CanarySpec = {
      schedule: '@every 1m',
      owner: 'ops',
      http: [
        { name: 'a', url: 'http://a', test: { expr: 'code == 200' } },
        { name: 'b', url: 'http://b' },
      ],
    };
    const next = roundTrip(setCheckField(spec, 'http', field('http', 'url'), 'http://changed'));
    expect(next).toEqual({
      schedule: '@every 1m',
      owner: 'ops',
      http: [
        { name: 'a', url: 'http://changed', test: { expr: 'code == 200' } },
        { name: 'b', url: 'http://b' },
      ],
    });
    // the input is not changed in place
    expect((spec.http as CanarySpec[])[0].url).toBe('http://a');
  });

  it('creates the check list when the spec has none and drops a field emptied in the form', () => {
    let spec = setCheckField({}, 'tcp', field('tcp', 'endpoint'), 'localhost:5432');
    expect(spec).toEqual({ tcp: [{ endpoint: 'localhost:5432' }] });
    spec = setCheckField(spec, 'tcp', field('tcp', 'endpoint'), '');
    expect(spec).toEqual({ tcp: [{}] });
  });

  it('stores numbers as integers and keeps what is not a number for the message', () => {
    const threshold = field('http', 'thresholdMillis');
    const spec = roundTrip(setCheckField({ http: [{}] }, 'http', threshold, '1500'));
    expect(firstCheck(spec, 'http').thresholdMillis).toBe(1500);
    const bad = roundTrip(setCheckField(spec, 'http', threshold, '15s'));
    expect(firstCheck(bad, 'http').thresholdMillis).toBe('15s');
    expect(fieldValue(firstCheck(bad, 'http'), threshold)).toBe('15s');
  });

  it('stores response codes as a sorted list of numbers and reads them back as choices', () => {
    const codes = field('http', 'responseCodes');
    const spec = roundTrip(setCheckField({ http: [{ url: 'u' }] }, 'http', codes, ['404', '200']));
    expect(firstCheck(spec, 'http').responseCodes).toEqual([200, 404]);
    expect(fieldValue(firstCheck(spec, 'http'), codes)).toEqual(['200', '404']);
    expect(firstCheck(setCheckField(spec, 'http', codes, []), 'http')).toEqual({ url: 'u' });
  });

  it('maps the HTTP method, body format and hides the body for GET and DELETE', () => {
    const method = field('http', 'method');
    const body = field('http', 'body');
    let spec = setCheckField({ http: [{ url: 'u' }] }, 'http', method, 'POST');
    expect(firstCheck(spec, 'http').method).toBe('POST');
    expect(body.visible?.(firstCheck(spec, 'http'))).toBe(true);
    spec = setCheckField(spec, 'http', field('http', 'templateBody'), 'true');
    expect(firstCheck(spec, 'http').templateBody).toBe(true);
    expect(fieldValue({ method: 'post' }, method)).toBe('POST');
    spec = setCheckField(spec, 'http', method, '');
    expect(firstCheck(spec, 'http').method).toBeUndefined();
    expect(body.visible?.(firstCheck(spec, 'http'))).toBe(false);
    expect(body.visible?.({ method: 'DELETE' })).toBe(false);
  });

  it('sets and clears the canary schedule', () => {
    expect(setSchedule({ http: [] }, '@every 30s')).toEqual({ http: [], schedule: '@every 30s' });
    expect(setSchedule({ schedule: '@daily' }, '')).toEqual({});
  });

  it('choosing a type adds a check to fill in and drops untouched empty lists of other types', () => {
    const http = chooseSpecType({ schedule: '@every 5m' }, 'http');
    expect(http).toEqual({ schedule: '@every 5m', http: [{}] });
    const tcp = chooseSpecType(http, 'tcp');
    expect(tcp).toEqual({ schedule: '@every 5m', tcp: [{}] });
    const kept = chooseSpecType({ http: [{ url: 'u' }], tcp: [{ endpoint: 'h:1' }] }, 'tcp');
    expect(kept).toEqual({ http: [{ url: 'u' }], tcp: [{ endpoint: 'h:1' }] });
    expect(chooseSpecType({ schedule: '@daily' }, 'custom')).toEqual({ schedule: '@daily' });
  });
});

describe('health-check form validation (settings §5)', () => {
  const cases: [string, string[]][] = [
    ['http', ['name', 'url']],
    ['tcp', ['name', 'endpoint']],
    ['icmp', ['name', 'endpoint']],
    ['redis', ['name', 'addr']],
    ['exec', ['name', 'script']],
    ['folder', ['name', 'path']],
    ['alertmanager', ['name', 'url']],
    ['elasticsearch', ['name', 'url', 'index', 'query']],
  ];
  it.each(cases)('%s requires %j', (type, required) => {
    const errors = validateCheck({ [type]: [{}] }, type);
    expect(Object.keys(errors).sort()).toEqual([...required].sort());
    expect(new Set(Object.values(errors))).toEqual(new Set([REQUIRED_MESSAGE]));
  });

  it('labels the required fields as the spec names them', () => {
    expect(field('tcp', 'endpoint').label).toBe('Endpoint');
    expect(field('icmp', 'endpoint').label).toBe('Host');
    expect(field('redis', 'addr').label).toBe('Address');
    expect(field('alertmanager', 'url').label).toBe('Host');
    expect(field('exec', 'script').label).toBe('Script');
    expect(field('folder', 'path').label).toBe('Path');
    expect(['URL', 'Index', 'Query']).toEqual(
      ['url', 'index', 'query'].map((key) => field('elasticsearch', key).label),
    );
  });

  it('passes a filled form, treats blank text as missing, and accepts a Redis url for the address', () => {
    expect(validateCheck({ http: [{ name: 'site', url: 'https://example.com' }] }, 'http')).toEqual({});
    expect(validateCheck({ exec: [{ name: 'x', script: '   ' }] }, 'exec')).toEqual({
      script: REQUIRED_MESSAGE,
    });
    expect(validateCheck({ redis: [{ name: 'r', url: 'redis://localhost:6379' }] }, 'redis')).toEqual({});
  });

  it("says 'This field must be a number' for a number field that is not a whole number", () => {
    const errors = validateCheck(
      { http: [{ name: 'a', url: 'u', thresholdMillis: 'fast' }], redis: [] },
      'http',
    );
    expect(errors).toEqual({ thresholdMillis: NUMBER_MESSAGE });
    expect(validateCheck({ redis: [{ name: 'r', addr: 'h:1', db: '1.5' }] }, 'redis')).toEqual({
      db: NUMBER_MESSAGE,
    });
  });

  it('does not check a hidden field', () => {
    const body = CHECK_FORMS.http.find((candidate) => candidate.key === 'body');
    expect(body?.required).toBeFalsy();
    expect(validateCheck({ http: [{ name: 'a', url: 'u', method: 'GET', body: 1 }] }, 'http')).toEqual({});
  });
});

describe('readEditor', () => {
  const base = { name: 'site', labelsText: '{"team": "ops"}', specText: 'http:\n  - name: a\n    url: u\n' };

  it('returns the trimmed name, the labels and the parsed spec', () => {
    expect(readEditor({ ...base, name: ' site ', typeKey: 'http' })).toEqual({
      ok: true,
      name: 'site',
      labels: { team: 'ops' },
      spec: { http: [{ name: 'a', url: 'u' }] },
    });
    expect(readEditor({ ...base, labelsText: '  ', typeKey: undefined })).toMatchObject({
      ok: true,
      labels: {},
    });
  });

  it('refuses a missing name, labels that are not a JSON object of text, and a spec that is not a YAML object', () => {
    const result = readEditor({ name: ' ', labelsText: '["a"]', specText: '- 1\n- 2', typeKey: 'http' });
    expect(result).toEqual({
      ok: false,
      problems: { name: REQUIRED_MESSAGE, labels: LABELS_MESSAGE, spec: SPEC_MESSAGE, check: {} },
    });
    expect(readEditor({ ...base, labelsText: '{"a": 1}', typeKey: undefined })).toMatchObject({
      ok: false,
      problems: { labels: LABELS_MESSAGE },
    });
    expect(readEditor({ ...base, labelsText: '{nope', typeKey: undefined })).toMatchObject({ ok: false });
    expect(readEditor({ ...base, specText: 'http: [', typeKey: undefined })).toMatchObject({
      ok: false,
      problems: { spec: SPEC_MESSAGE },
    });
  });

  it("includes the chosen form type's required fields", () => {
    expect(readEditor({ ...base, specText: 'http:\n  - name: a\n', typeKey: 'http' })).toEqual({
      ok: false,
      problems: { check: { url: REQUIRED_MESSAGE } },
    });
    // A code-only type has no form fields to check.
    expect(readEditor({ ...base, specText: 'dns:\n  - {}\n', typeKey: undefined }).ok).toBe(true);
  });
});

describe('SFTP fields', () => {
  const host = field('folder', 'sftpConnection.host');
  const port = field('folder', 'sftpConnection.port');
  const username = field('folder', 'sftpConnection.username');
  const password = field('folder', 'sftpConnection.password');

  it('offers the SFTP type on a form, starting with port 22', () => {
    expect(detectSpecType({ sftp: [] })).toMatchObject({ label: 'SFTP', hasForm: true });
    expect(chooseSpecType({ schedule: '@daily' }, 'sftp')).toEqual({
      schedule: '@daily',
      sftp: [{ port: 22 }],
    });
    expect(CHECK_FORMS.sftp.map((entry) => entry.label)).toEqual([
      'Check name',
      'Host',
      'Port',
      'Username',
      'Password',
      'Path',
      'Min count',
      'Max count',
      'Min age',
      'Max age',
      'Description',
    ]);
  });

  it('writes a folder check sftpConnection block, port 22 by default, and reads it back', () => {
    let spec: CanarySpec = { folder: [{ name: 'uploads', path: '/upload' }] };
    spec = setCheckField(spec, 'folder', host, 'sftp.example.com');
    expect(firstCheck(spec, 'folder')).toEqual({
      name: 'uploads',
      path: '/upload',
      sftpConnection: { host: 'sftp.example.com', port: 22 },
    });
    spec = setCheckField(spec, 'folder', port, '2222');
    spec = setCheckField(spec, 'folder', username, 'backup');
    spec = setCheckField(spec, 'folder', password, 's3 cret');
    const back = roundTrip(spec);
    expect(back).toEqual({
      folder: [
        {
          name: 'uploads',
          path: '/upload',
          sftpConnection: { host: 'sftp.example.com', port: 2222, username: 'backup', password: 's3 cret' },
        },
      ],
    });
    const check = firstCheck(back, 'folder');
    expect([host, port, username, password].map((entry) => fieldValue(check, entry))).toEqual([
      'sftp.example.com',
      '2222',
      'backup',
      's3 cret',
    ]);
  });

  it('makes the folder local again when the SFTP fields are cleared', () => {
    let spec: CanarySpec = { folder: [{ name: 'f', path: '/p' }] };
    spec = setCheckField(spec, 'folder', host, 'h');
    spec = setCheckField(spec, 'folder', host, '');
    expect(firstCheck(spec, 'folder')).toEqual({ name: 'f', path: '/p' });
    expect(validateCheck(spec, 'folder')).toEqual({});
  });

  it('requires host, username and password once SFTP is used, and a whole-number port', () => {
    let spec: CanarySpec = { folder: [{ name: 'f', path: '/p' }] };
    expect(validateCheck(spec, 'folder')).toEqual({});
    spec = setCheckField(spec, 'folder', port, 'twenty-two');
    expect(validateCheck(spec, 'folder')).toEqual({
      'sftpConnection.host': REQUIRED_MESSAGE,
      'sftpConnection.port': NUMBER_MESSAGE,
      'sftpConnection.username': REQUIRED_MESSAGE,
      'sftpConnection.password': REQUIRED_MESSAGE,
    });
    // A password from a secret counts as given, and is kept as written.
    spec = {
      folder: [
        {
          name: 'f',
          path: '/p',
          sftpConnection: {
            host: 'h',
            username: 'u',
            password: { valueFrom: { secretKeyRef: { name: 'sftp', key: 'password' } } },
          },
        },
      ],
    };
    expect(validateCheck(spec, 'folder')).toEqual({});
    const edited = setCheckField(spec, 'folder', host, 'other');
    expect(firstCheck(edited, 'folder').sftpConnection).toEqual({
      host: 'other',
      username: 'u',
      password: { valueFrom: { secretKeyRef: { name: 'sftp', key: 'password' } } },
    });
    expect(validateCheck({ sftp: [{ name: 's', port: 22 }] }, 'sftp')).toEqual({
      host: REQUIRED_MESSAGE,
      username: REQUIRED_MESSAGE,
      password: REQUIRED_MESSAGE,
      path: REQUIRED_MESSAGE,
    });
  });
});
