import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderTemplate } from './go-template.js';

/**
 * Differential test: every template of the corpus is rendered by Go's own text/template (a
 * small program built in a temporary directory, the data decoded from JSON into
 * map[string]interface{} as the ecosystem does) and by ours; outputs and failures must agree.
 */
const DATA = {
  code: 200,
  ratio: 0.25,
  name: 'api',
  empty: '',
  zero: 0,
  nothing: null,
  ok: true,
  list: ['a', 'b', 'c'],
  numbers: [3, 1, 2],
  json: {
    status: 'green',
    items: [
      { name: 'a', ok: true },
      { name: 'b', ok: false },
    ],
    count: 2,
  },
  labels: { zone: 'eu', env: 'prod' },
};

// Builtins only: Go's text/template has no sprig-style functions without extra packages.
const CORPUS = [
  '{{ .code }} {{ .name }}',
  '{{ .ratio }}',
  '{{ .json.status }}/{{ .json.count }}',
  '{{ .missing }}',
  '{{ .missing.deeper.still }}',
  '[{{ .json.missing.more }}]',
  '{{ .nothing }}',
  '{{ .nothing.field }}',
  '{{ .name.field }}',
  '{{ .list }}',
  '{{ .labels }}',
  '{{ .json.items }}',
  '{{ index .list 1 }}',
  '{{ index .labels "zone" }}',
  '{{ index .labels "none" }}',
  '{{ index .list 7 }}',
  '{{ len .list }} {{ len .labels }} {{ len .name }}',
  '{{ range .list }}<{{ . }}>{{ end }}',
  '{{ range $i, $v := .list }}{{ $i }}={{ $v }};{{ end }}',
  '{{ range $k, $v := .labels }}{{ $k }}:{{ $v }} {{ end }}',
  '{{ range .missing }}x{{ else }}none{{ end }}',
  '{{ if .ok }}yes{{ else }}no{{ end }}',
  '{{ if .empty }}yes{{ else }}no{{ end }}',
  '{{ if .zero }}yes{{ else if .code }}code{{ end }}',
  '{{ if .missing.a }}yes{{ else }}no{{ end }}',
  '{{ if and .ok .code }}both{{ end }}',
  '{{ or .empty .name }}',
  '{{ not .ok }}',
  '{{ eq .code 200 }} {{ ne .name "x" }} {{ lt .code 300 }} {{ ge .zero 0 }}',
  '{{ eq .name "api" "web" }}',
  '{{ printf "%s=%d" .name .code }}',
  '{{ printf "%v|%q|%5.2f" .list .name .ratio }}',
  '{{ printf "%x" .name }}',
  '{{ print .name .code }}',
  '{{ println .name }}',
  '{{ with .labels }}{{ .zone }}{{ end }}',
  '{{ with .missing }}x{{ else }}absent{{ end }}',
  '{{ $x := .code }}{{ $x }}',
  '{{ .name | printf "%s!" }}',
  '{{ html "<a & b>" }} {{ js "it\'s <b> & \\"q\\" =" }} {{ urlquery "a b&c" }}',
  '{{- .name -}} | {{- .code }}',
  '{{/* a comment */}}kept',
  '{{ range .json.items }}{{ if .ok }}{{ .name }}{{ end }}{{ end }}',
  '{{ define "inner" }}[{{ . }}]{{ end }}{{ template "inner" .name }}',
  '{{ slice .name 1 2 }}',
  '{{ .undefinedFunction }}',
  '{{ eq .list 1 }}',
];

let directory = '';
afterAll(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
});

const hasGo = spawnSync('go', ['version']).status === 0;

function renderWithGo(): { output?: string; error?: string }[] {
  directory = mkdtempSync(path.join(tmpdir(), 'opsdeck-gotemplate-'));
  writeFileSync(path.join(directory, 'data.json'), JSON.stringify(DATA));
  writeFileSync(path.join(directory, 'corpus.json'), JSON.stringify(CORPUS));
  writeFileSync(
    path.join(directory, 'main.go'),
    `package main

import (
	"bytes"
	"encoding/json"
	"os"
	"text/template"
)

type outcome struct {
	Output *string \`json:"output,omitempty"\`
	Error  *string \`json:"error,omitempty"\`
}

// The ecosystem's checks hand templates Go ints (status codes, counts), not JSON's float64.
func wholeNumbers(value interface{}) interface{} {
	switch v := value.(type) {
	case float64:
		if v == float64(int64(v)) {
			return int(v)
		}
		return v
	case []interface{}:
		for i := range v {
			v[i] = wholeNumbers(v[i])
		}
		return v
	case map[string]interface{}:
		for k := range v {
			v[k] = wholeNumbers(v[k])
		}
		return v
	}
	return value
}

func main() {
	var data map[string]interface{}
	var corpus []string
	raw, _ := os.ReadFile("data.json")
	_ = json.Unmarshal(raw, &data)
	data = wholeNumbers(data).(map[string]interface{})
	raw, _ = os.ReadFile("corpus.json")
	_ = json.Unmarshal(raw, &corpus)
	out := []outcome{}
	for _, source := range corpus {
		var o outcome
		tmpl, err := template.New("t").Parse(source)
		if err == nil {
			var buffer bytes.Buffer
			err = tmpl.Execute(&buffer, data)
			if err == nil {
				text := buffer.String()
				o.Output = &text
			}
		}
		if err != nil {
			message := err.Error()
			o.Error = &message
		}
		out = append(out, o)
	}
	encoded, _ := json.Marshal(out)
	os.Stdout.Write(encoded)
}
`,
  );
  writeFileSync(path.join(directory, 'go.mod'), 'module gotemplate\n\ngo 1.19\n');
  const stdout = execFileSync('go', ['run', '.'], {
    cwd: directory,
    env: { ...process.env, GOCACHE: path.join(directory, 'cache'), GOFLAGS: '-mod=mod', GO111MODULE: 'on' },
    timeout: 120_000,
  });
  return JSON.parse(stdout.toString('utf8')) as { output?: string; error?: string }[];
}

describe.skipIf(!hasGo)("Go templates against Go's own text/template", () => {
  it('renders the corpus as Go does (same output, or both fail)', () => {
    const expected = renderWithGo();
    expect(expected).toHaveLength(CORPUS.length);
    const mismatches: string[] = [];
    CORPUS.forEach((source, index) => {
      let ours: { output?: string; error?: string };
      try {
        ours = { output: renderTemplate(source, DATA) };
      } catch (error) {
        ours = { error: (error as Error).message };
      }
      const theirs = expected[index];
      if (theirs.error !== undefined) {
        if (ours.error === undefined)
          mismatches.push(`${source}: Go failed (${theirs.error}), ours gave ${JSON.stringify(ours.output)}`);
      } else if (ours.output !== theirs.output) {
        mismatches.push(
          `${source}: Go ${JSON.stringify(theirs.output)}, ours ${JSON.stringify(ours.output ?? ours.error)}`,
        );
      }
    });
    expect(mismatches).toEqual([]);
  }, 180_000);
});

if (!hasGo) {
  describe("Go templates against Go's own text/template", () => {
    it.skip('needs the `go` binary (Debian golang-go); install it to run the differential test', () =>
      undefined);
  });
}
