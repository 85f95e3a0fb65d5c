import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import clsx from 'clsx';
import { useMemo, useState } from 'react';
import { parse as parseYaml } from 'yaml';
import { validateJsonSchema, type JsonSchema } from './json-schema';

export type CodeLanguage = 'yaml' | 'json';

type ParseResult = { ok: true; value: unknown } | { ok: false };

/** Parses editor text; blank text is an empty document (undefined), not an error. */
export function parseCode(text: string, language: CodeLanguage): ParseResult {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: language === 'json' ? JSON.parse(text) : parseYaml(text) };
  } catch {
    return { ok: false };
  }
}

export interface CodeEditorProps {
  /** Accessible name of the editing area. */
  label: string;
  /** The text; the editor is controlled, so feed `onChange` back into it. */
  value: string;
  onChange?(text: string): void;
  /**
   * Receives the parsed document after each edit that parses. Unparsable text while typing is
   * ignored (settings §5): this is simply not called, and the last schema result stays.
   */
  onParsedChange?(value: unknown): void;
  language: CodeLanguage;
  /** Validates the parsed document; errors are listed under the editor. */
  schema?: JsonSchema;
  readOnly?: boolean;
  /** CSS height of the editor. Default '20rem'. */
  height?: string;
  className?: string;
}

/** A CodeMirror 6 editor for YAML or JSON with optional JSON Schema validation. */
export function CodeEditor({
  label,
  value,
  onChange,
  onParsedChange,
  language,
  schema,
  readOnly = false,
  height = '20rem',
  className,
}: CodeEditorProps) {
  const parsedValue = useMemo(() => parseCode(value, language), [value, language]);
  const [lastParsed, setLastParsed] = useState<unknown>(parsedValue.ok ? parsedValue.value : undefined);
  const document = parsedValue.ok ? parsedValue.value : lastParsed;
  const errors = useMemo(
    () => (schema && document !== undefined ? validateJsonSchema(document, schema) : []),
    [document, schema],
  );

  const extensions = useMemo(
    () => [
      language === 'json' ? json() : yaml(),
      EditorView.contentAttributes.of({ 'aria-label': label }),
      EditorView.lineWrapping,
    ],
    [label, language],
  );

  return (
    <div className={clsx('flex flex-col gap-1', className)}>
      <div className="overflow-hidden rounded-md border border-gray-300">
        <CodeMirror
          value={value}
          height={height}
          extensions={extensions}
          readOnly={readOnly}
          editable={!readOnly}
          basicSetup={{ foldGutter: true, highlightActiveLine: !readOnly }}
          onChange={(text) => {
            onChange?.(text);
            const parsed = parseCode(text, language);
            if (!parsed.ok) return;
            setLastParsed(parsed.value);
            onParsedChange?.(parsed.value);
          }}
        />
      </div>
      {errors.length > 0 && (
        <ul aria-label="Schema errors" className="flex flex-col gap-0.5 text-xs text-red-700">
          {errors.map((error) => (
            <li key={`${error.path}:${error.message}`}>
              <span className="font-mono">{error.path}</span>: {error.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
