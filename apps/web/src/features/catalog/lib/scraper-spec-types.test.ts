import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  detectScraperSpecType,
  readScraperForm,
  SCRAPER_SPEC_TYPES,
  writeScraperForm,
} from './scraper-spec-types';

const type = (key: string) => SCRAPER_SPEC_TYPES.find((candidate) => candidate.key === key)!;
const field = (typeKey: string, key: string) =>
  type(typeKey).fields!.find((candidate) => candidate.key === key)!;

describe('scraper spec types', () => {
  it('detects the type from the first key other than schedule and retention, else custom', () => {
    expect(detectScraperSpecType({ schedule: '@daily', retention: {}, file: [] }).key).toBe('file');
    expect(detectScraperSpecType({ postgres: [] }).key).toBe('sql');
    expect(detectScraperSpecType({ kubernetes: [] }).fields).toBeUndefined();
    expect(detectScraperSpecType({ schedule: '@daily' }).key).toBe('custom');
    expect(detectScraperSpecType({ somethingNew: [] }).key).toBe('custom');
    expect(detectScraperSpecType(null).key).toBe('custom');
  });

  it('every template parses and is of its own type', () => {
    for (const candidate of SCRAPER_SPEC_TYPES)
      expect(detectScraperSpecType(parse(candidate.template)).key).toBe(candidate.key);
  });

  it('reads and writes the first entry in place, keeping comments and other fields', () => {
    const yaml =
      '# nightly\nschedule: "@daily"\nfile:\n  - type: A::B # the type\n    id: $.id\n    paths: [a.json]\n';
    expect(readScraperForm(yaml, type('file'))).toMatchObject({
      ok: true,
      schedule: '@daily',
      values: { type: 'A::B', id: '$.id', paths: 'a.json', name: '', format: '' },
    });
    let next = writeScraperForm(yaml, type('file'), field('file', 'paths'), 'a.json\n logs/*.json \n');
    next = writeScraperForm(next, type('file'), field('file', 'name'), '$.name');
    next = writeScraperForm(next, type('file'), field('file', 'id'), '');
    next = writeScraperForm(next, type('file'), undefined, '@hourly');
    expect(next).toContain('# nightly');
    expect(next).toContain('# the type');
    expect(parse(next)).toEqual({
      schedule: '@hourly',
      file: [{ type: 'A::B', paths: ['a.json', 'logs/*.json'], name: '$.name' }],
    });
  });

  it('writes under the alias the spec uses and creates the entry when missing', () => {
    const next = writeScraperForm(
      'postgres:\n  - query: SELECT 1\n',
      type('sql'),
      field('sql', 'connection'),
      'postgres://x',
    );
    expect(parse(next)).toEqual({ postgres: [{ query: 'SELECT 1', connection: 'postgres://x' }] });
    const created = writeScraperForm(
      'schedule: "@daily"\n',
      type('exec'),
      field('exec', 'script'),
      'echo []',
    );
    expect(parse(created)).toEqual({ schedule: '@daily', exec: [{ script: 'echo []' }] });
    expect(parse(writeScraperForm('', type('file'), field('file', 'id'), '$.x'))).toEqual({
      file: [{ id: '$.x' }],
    });
    expect(writeScraperForm('just text\n', type('file'), field('file', 'id'), '$.x')).toBe('just text\n');
  });

  it('refuses to edit YAML that does not parse', () => {
    const broken = 'file: [\n';
    expect(readScraperForm(broken, type('file')).ok).toBe(false);
    expect(writeScraperForm(broken, type('file'), field('file', 'id'), '$.x')).toBe(broken);
  });
});
