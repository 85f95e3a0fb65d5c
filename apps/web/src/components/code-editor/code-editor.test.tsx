import { act, cleanup, render, screen } from '@testing-library/react';
import { EditorView } from '@uiw/react-codemirror';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CodeEditor, parseCode } from './code-editor';
import type { JsonSchema } from './json-schema';

afterEach(cleanup);

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, replicas: { type: 'integer' } },
};

function Harness({
  initial,
  language = 'yaml',
  onParsed,
}: {
  initial: string;
  language?: 'yaml' | 'json';
  onParsed?: (value: unknown) => void;
}) {
  const [text, setText] = useState(initial);
  return (
    <CodeEditor
      label="Spec"
      value={text}
      onChange={setText}
      onParsedChange={onParsed}
      language={language}
      schema={SCHEMA}
    />
  );
}

/** Types into the editor the way CodeMirror does: a transaction on its view. */
function replaceText(text: string) {
  const content = screen.getByRole('textbox', { name: 'Spec' });
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error('no editor view');
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
}

function schemaErrors(): string[] {
  const list = screen.queryByRole('list', { name: 'Schema errors' });
  return list ? [...list.querySelectorAll('li')].map((item) => item.textContent ?? '') : [];
}

describe('parseCode', () => {
  it('parses YAML and JSON and rejects broken text', () => {
    expect(parseCode('name: a\nreplicas: 2', 'yaml')).toEqual({
      ok: true,
      value: { name: 'a', replicas: 2 },
    });
    expect(parseCode('{"name": "a"}', 'json')).toEqual({ ok: true, value: { name: 'a' } });
    expect(parseCode('name: [', 'yaml')).toEqual({ ok: false });
    expect(parseCode('{', 'json')).toEqual({ ok: false });
    expect(parseCode('  ', 'json')).toEqual({ ok: true, value: undefined });
  });
});

describe('CodeEditor', () => {
  it('shows the text in an editor named by its label', () => {
    render(<Harness initial={'name: web\n'} />);
    expect(screen.getByRole('textbox', { name: 'Spec' }).textContent).toContain('name: web');
    expect(schemaErrors()).toEqual([]);
  });

  it('lists schema errors of the document', () => {
    render(<Harness initial={'replicas: two\n'} />);
    expect(schemaErrors()).toEqual(['name: is required', 'replicas: must be integer']);
  });

  it('validates after each parsable edit and ignores unparsable text while typing', () => {
    const onParsed = vi.fn();
    render(<Harness initial={'name: web\n'} onParsed={onParsed} />);
    replaceText('name: web\nreplicas: 1.5\n');
    expect(onParsed).toHaveBeenLastCalledWith({ name: 'web', replicas: 1.5 });
    expect(schemaErrors()).toEqual(['replicas: must be integer']);
    onParsed.mockClear();
    replaceText('name: web\nreplicas: [1,\n');
    expect(onParsed).not.toHaveBeenCalled();
    expect(schemaErrors()).toEqual(['replicas: must be integer']);
    replaceText('name: web\nreplicas: 3\n');
    expect(onParsed).toHaveBeenCalledWith({ name: 'web', replicas: 3 });
    expect(schemaErrors()).toEqual([]);
  });

  it('edits JSON too', () => {
    render(<Harness initial={'{"name": "web"}'} language="json" />);
    replaceText('{"name": 5}');
    expect(schemaErrors()).toEqual(['name: must be string']);
  });
});
