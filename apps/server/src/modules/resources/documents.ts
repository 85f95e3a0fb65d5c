import { parseAllDocuments } from 'yaml';
import { DEFAULT_JSON_LIMITS, inspectJsonValue } from '../../platform/http/json-limits.js';

/** Where a document came from: its file (or other label) and its position in that file. */
export interface DocumentOrigin {
  /** File path (or `stdin`, `demo/teams.yaml`, ...) as the user should read it. */
  file: string;
  /** 1-based position of the document among the file's `---`-separated documents. */
  document: number;
}

/** One YAML document of a resource file, not yet validated. */
export interface ResourceDocument {
  origin: DocumentOrigin;
  /** The document as plain data; undefined when it did not parse. */
  content: unknown;
  /** YAML syntax errors (with line and column); the document is invalid when any exist. */
  yamlErrors: string[];
}

/** Guards against alias bombs in user files while allowing ordinary anchors and merges. */
const MAX_ALIAS_COUNT = 100;

/** Why a document could not be read: a stack overflow means nesting too deep for any reader. */
function yamlFailure(error: unknown): string {
  const message = (error as Error).message.split('\n')[0];
  if (/call stack/i.test(message)) {
    return `the document is nested deeper than the limit of ${DEFAULT_JSON_LIMITS.maxDepth} levels`;
  }
  if (/alias count/i.test(message)) {
    return `the document expands aliases more than the limit of ${MAX_ALIAS_COUNT} times (${message})`;
  }
  return message;
}

/**
 * Splits a multi-document YAML text into documents, keeping each one's origin. Empty documents
 * (a trailing `---`, only comments, an explicit null) are dropped; their numbers stay reserved so that
 * `file#3` always means the third document of the file.
 */
export function parseResourceDocuments(text: string, file: string): ResourceDocument[] {
  const parsed = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true, merge: true });
  // An empty or comment-only text is an empty stream, not a list of documents.
  const documents = Array.isArray(parsed) ? parsed : [];
  const result: ResourceDocument[] = [];
  documents.forEach((document, index) => {
    const origin = { file, document: index + 1 };
    if (document.errors.length > 0) {
      result.push({
        origin,
        content: undefined,
        yamlErrors: document.errors.map((error) => yamlFailure(error)),
      });
      return;
    }
    try {
      const content: unknown = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
      // The same limits as a JSON body: nesting, size, and no NUL character (`"\0"` in YAML).
      const problem = inspectJsonValue(content, DEFAULT_JSON_LIMITS);
      if (problem) result.push({ origin, content: undefined, yamlErrors: [problem.message] });
      else if (content !== null && content !== undefined) result.push({ origin, content, yamlErrors: [] });
    } catch (error) {
      result.push({ origin, content: undefined, yamlErrors: [yamlFailure(error)] });
    }
  });
  return result;
}
