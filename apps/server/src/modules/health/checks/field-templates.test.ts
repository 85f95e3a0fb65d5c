import { describe, expect, it } from 'vitest';
import { dollarToBraces, renderCheckFields } from './field-templates.js';

const ctx = { canary: { name: 'web', namespace: 'prod' } };

describe('templated check fields', () => {
  it('reads $( ... ) as a template action and leaves shell-style $(command) alone', () => {
    expect(dollarToBraces('a/$(.x)/b')).toBe('a/{{.x}}/b');
    expect(dollarToBraces('$(index .m "k")')).toBe('{{index .m "k"}}');
    expect(dollarToBraces('$(username):$(password)')).toBe('$(username):$(password)');
    expect(dollarToBraces('$(.a) and (b)')).toBe('{{.a}} and (b)');
  });

  it('renders templated fields with env and last_result, leaving expressions and scripts', async () => {
    const rendered = (await renderCheckFields(
      {
        name: 'q',
        url: 'http://h/$(.stage)',
        query: 'SELECT * FROM t WHERE id > {{ .last_result.results.max }}',
        headers: [{ name: 'X-Canary', value: '{{ .canary.name }}' }],
        env: [{ name: 'stage', value: 'prod' }],
        test: { template: '{{ .code }}' },
        script: 'echo {{ not rendered }}',
      },
      ctx,
      { results: { max: 7 } },
    )) as Record<string, unknown>;
    expect(rendered.url).toBe('http://h/prod');
    expect(rendered.query).toBe('SELECT * FROM t WHERE id > 7');
    expect(rendered.headers).toEqual([{ name: 'X-Canary', value: 'web' }]);
    expect(rendered.test).toEqual({ template: '{{ .code }}' });
    expect(rendered.script).toBe('echo {{ not rendered }}');
  });

  it('renders a missing previous result as <no value>, and a broken template as a spec error', async () => {
    const first = (await renderCheckFields(
      { name: 'q', path: '/d/{{ .last_result.results.max }}' },
      ctx,
      undefined,
    )) as {
      path: string;
    };
    expect(first.path).toBe('/d/<no value>');
    await expect(renderCheckFields({ name: 'q', url: '{{ .x ' }, ctx, undefined)).rejects.toThrow(/^url: /);
  });

  it('leaves the fields a type templates itself', async () => {
    const rendered = (await renderCheckFields({ name: 'h', url: '{{ .username }}' }, ctx, undefined, [
      'url',
    ])) as {
      url: string;
    };
    expect(rendered.url).toBe('{{ .username }}');
  });
});
