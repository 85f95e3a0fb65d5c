import { describe, expect, it } from 'vitest';
import { ExpressionError } from './expression-error.js';
import { renderTemplate } from './go-template.js';

const data = {
  code: 200,
  name: 'api',
  json: {
    items: [
      { name: 'a', ok: true },
      { name: 'b', ok: false },
    ],
    count: 2,
    status: 'green',
    empty: [],
  },
  labels: { zone: 'eu', env: 'prod' },
  results: { stdout: 'done\n', exitCode: 0 },
};

describe('renderTemplate', () => {
  it('prints fields, nested fields and the dot', () => {
    expect(renderTemplate('{{ .code }} {{ .json.status }}', data)).toBe('200 green');
    expect(renderTemplate('{{ .results.exitCode }}', data)).toBe('0');
    expect(renderTemplate('{{ .json.items }}', data)).toBe('[map[name:a ok:true] map[name:b ok:false]]');
    expect(renderTemplate('{{ .labels }}', data)).toBe('map[env:prod zone:eu]');
  });

  it('prints <no value> through a missing key chain and fails on a field of nil or of a string', () => {
    expect(renderTemplate('[{{ .json.missing }}]', data)).toBe('[<no value>]');
    expect(renderTemplate('{{ .missing.deeper.still }}', data)).toBe('<no value>');
    expect(() => renderTemplate('{{ .nothing.deeper }}', { nothing: null })).toThrowError(
      /nil pointer evaluating \.nothing\.deeper/,
    );
    expect(() => renderTemplate('{{ .name.first }}', data)).toThrowError(
      /can't evaluate field first in type string/,
    );
  });

  it('runs pipelines into helpers, with the subject last', () => {
    expect(renderTemplate('{{ .name | upper }}', data)).toBe('API');
    expect(renderTemplate('{{ .json.status | replace "green" "ok" | printf "status=%s" }}', data)).toBe(
      'status=ok',
    );
    expect(renderTemplate('{{ .json.missing | default "none" }}', data)).toBe('none');
    expect(renderTemplate('{{ "a,b,c" | split "," | join "+" }}', data)).toBe('a+b+c');
    expect(renderTemplate('{{ strings.ToUpper .name }}', data)).toBe('API');
    expect(
      renderTemplate('{{ printf "%d items, %.1f%%, %q, %5s|%-4d|" .json.count 12.345 "x" "ab" 7 }}', data),
    ).toBe('2 items, 12.3%, "x",    ab|7   |');
  });

  it('branches with if / else if / else and the comparison helpers', () => {
    const template = '{{ if eq .code 200 201 }}ok{{ else if gt .code 499 }}server{{ else }}other{{ end }}';
    expect(renderTemplate(template, data)).toBe('ok');
    expect(renderTemplate(template, { code: 503 })).toBe('server');
    expect(renderTemplate(template, { code: 404 })).toBe('other');
    expect(renderTemplate('{{ if and .json.count (not .json.empty) }}yes{{ end }}', data)).toBe('yes');
    expect(renderTemplate('{{ if or .json.empty .json.missing }}yes{{ else }}no{{ end }}', data)).toBe('no');
    expect(renderTemplate('{{ if ne .name "api" }}x{{ else }}same{{ end }}', data)).toBe('same');
    expect(
      renderTemplate('{{ if lt 1 2 }}{{ if le 2 2 }}{{ if ge 3 2 }}all{{ end }}{{ end }}{{ end }}', {}),
    ).toBe('all');
  });

  it('ranges over lists, maps and counts, with variables, else, break and continue', () => {
    expect(renderTemplate('{{ range .json.items }}{{ .name }};{{ end }}', data)).toBe('a;b;');
    expect(
      renderTemplate('{{ range $i, $item := .json.items }}{{ $i }}:{{ $item.name }} {{ end }}', data),
    ).toBe('0:a 1:b ');
    expect(renderTemplate('{{ range $k, $v := .labels }}{{ $k }}={{ $v }},{{ end }}', data)).toBe(
      'env=prod,zone=eu,',
    );
    expect(renderTemplate('{{ range .json.empty }}x{{ else }}nothing{{ end }}', data)).toBe('nothing');
    expect(
      renderTemplate(
        '{{ range 5 }}{{ if eq . 1 }}{{ continue }}{{ end }}{{ if eq . 3 }}{{ break }}{{ end }}{{ . }}{{ end }}',
        {},
      ),
    ).toBe('02');
    expect(
      renderTemplate(
        '{{ $total := 0 }}{{ range .json.items }}{{ $total = add $total 1 }}{{ end }}{{ $total }}',
        data,
      ),
    ).toBe('2');
    expect(renderTemplate('{{ range .json.items }}{{ $.name }}/{{ .name }} {{ end }}', data)).toBe(
      'api/a api/b ',
    );
  });

  it('scopes with, uses len, index, toJSON and parenthesised pipelines', () => {
    expect(renderTemplate('{{ with .json }}{{ .status }}{{ end }}', data)).toBe('green');
    expect(renderTemplate('{{ with .json.missing }}x{{ else }}none{{ end }}', data)).toBe('none');
    expect(renderTemplate('{{ len .json.items }} {{ len .name }} {{ len .labels }}', data)).toBe('2 3 2');
    expect(renderTemplate('{{ (index .json.items 1).name }}', data)).toBe('b');
    expect(renderTemplate('{{ toJSON .labels }}', data)).toBe('{"zone":"eu","env":"prod"}');
    expect(renderTemplate('{{ (fromJSON `{"a":[1,2]}`).a }}', data)).toBe('[1 2]');
  });

  it('honours trim markers and comments', () => {
    expect(renderTemplate('a  {{- .name -}}  \n b', data)).toBe('aapib');
    expect(renderTemplate('x {{/* a comment */}}y', data)).toBe('x y');
    expect(renderTemplate('x {{- /* trimmed */ -}} y', data)).toBe('xy');
  });

  it('supports define and template', () => {
    expect(
      renderTemplate(
        '{{ define "item" }}<{{ .name }}>{{ end }}{{ range .json.items }}{{ template "item" . }}{{ end }}',
        data,
      ),
    ).toBe('<a><b>');
  });

  it('reports syntax and runtime errors with the language and the template', () => {
    const failures: Array<[string, RegExp]> = [
      ['{{ if .code }}no end', /syntax error: unexpected EOF/],
      ['{{ end }}', /syntax error: unexpected \{\{end\}\}/],
      ['{{ .code', /syntax error: unclosed action/],
      ['{{ nosuchfn .code }}', /function "nosuchfn" not defined/],
      ['{{ .code 1 }}', /can't give argument to non-function \.code/],
      ['{{ eq .code "200" }}', /incompatible types for comparison/],
      ['{{ index .json.items 5 }}', /index out of range: 5/],
      ['{{ $undefined }}', /undefined variable: \$undefined/],
      ['{{ break }}', /outside \{\{range\}\}/],
      ['{{ constructor }}', /function "constructor" not defined/],
    ];
    for (const [template, reason] of failures) {
      expect(() => renderTemplate(template, data), template).toThrowError(ExpressionError);
      expect(() => renderTemplate(template, data), template).toThrowError(reason);
      expect(() => renderTemplate(template, data), template).toThrowError(
        /^Go template expression failed: .*\(expression: /,
      );
    }
  });

  it('never reaches host object members through field access', () => {
    expect(renderTemplate('[{{ .json.constructor }}][{{ index .json "__proto__" }}]', data)).toBe(
      '[<no value>][<no value>]',
    );
  });

  it('stops runaway templates at the step and output limits', () => {
    expect(() => renderTemplate('{{ range 100000000 }}{{ end }}', {}, { maxSteps: 10_000 })).toThrowError(
      /stopped after 10000 evaluation steps/,
    );
    expect(() =>
      renderTemplate('{{ range 100000 }}xxxxxxxxxx{{ end }}', {}, { maxOutputLength: 1000 }),
    ).toThrowError(/output exceeded 1000 characters/);
  });
});
