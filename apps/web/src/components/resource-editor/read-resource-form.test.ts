import { describe, expect, it } from 'vitest';
import { readResourceForm } from './read-resource-form';

describe('readResourceForm (settings §5: name required, Add/Update disabled while invalid)', () => {
  it('accepts a name, JSON labels and a YAML mapping', () => {
    expect(readResourceForm('shop', '{"team":"shop"}', 'file:\n  path: /var/log/x.log\n')).toEqual({
      ok: true,
      labels: { team: 'shop' },
      spec: { file: { path: '/var/log/x.log' } },
      problems: {},
    });
  });

  it('names each problem', () => {
    const form = readResourceForm('  ', '[1]', '- a list');
    expect(form.ok).toBe(false);
    expect(form.problems).toEqual({
      name: 'Name is required',
      labels: 'Labels must be a JSON object',
      spec: 'Spec must be a YAML mapping',
    });
  });
});
