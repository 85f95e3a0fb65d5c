import { describe, expect, it } from 'vitest';
import { scraperToForm, validateScraperForm } from './scraper-form';

const valid = {
  name: ' files ',
  namespace: ' default ',
  labels: '{"team": "ops"}',
  spec: 'file:\n  - paths: [a]\n',
};

describe('validateScraperForm', () => {
  it('trims the name and namespace and parses labels and spec', () => {
    expect(validateScraperForm(valid, { isNew: true })).toEqual({
      ok: true,
      value: {
        name: 'files',
        namespace: 'default',
        labels: { team: 'ops' },
        spec: { file: [{ paths: ['a'] }] },
      },
    });
  });

  it('names every field that is wrong, with the settings messages', () => {
    expect(
      validateScraperForm({ name: ' ', namespace: '', labels: '{"a": 1}', spec: '- 1' }, { isNew: true }),
    ).toEqual({
      ok: false,
      errors: {
        name: 'This field is required',
        labels: 'Labels must be a JSON object',
        spec: 'Spec must be a YAML object',
      },
    });
    const broken = validateScraperForm({ ...valid, labels: '{nope', spec: 'a: [' }, { isNew: false });
    expect(broken).toMatchObject({ ok: false, errors: { labels: 'Labels must be a JSON object' } });
    if (!broken.ok) expect(broken.errors.spec).toMatch(/^Spec is not valid YAML: /);
  });

  it('lets a saved scraper keep its name and starts a new one empty', () => {
    expect(validateScraperForm({ ...valid, name: '' }, { isNew: false }).ok).toBe(true);
    expect(scraperToForm(undefined)).toEqual({ name: '', namespace: 'default', labels: '{}', spec: '' });
  });
});
