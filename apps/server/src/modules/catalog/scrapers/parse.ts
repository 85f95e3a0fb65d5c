import { parseAllDocuments } from 'yaml';
import { toJsonValue, type JsonValue } from '../../../expressions/index.js';
import { ScrapeError } from './types.js';

export type DocumentFormat = 'json' | 'yaml' | 'plain';

export function formatOf(declared: unknown, name: string): DocumentFormat {
  if (typeof declared === 'string' && declared.trim() !== '') {
    const format = declared.trim().toLowerCase();
    if (format === 'json') return 'json';
    if (format === 'yaml' || format === 'yml') return 'yaml';
    if (format === 'plain' || format === 'text' || format === 'txt') return 'plain';
    throw new ScrapeError(`unknown format "${declared}": use json, yaml or plain`);
  }
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return 'plain';
}

/**
 * Parses a document. YAML streams with several documents give one value per document; a
 * document that does not parse fails with where it came from and the parser's reason.
 */
export function parseDocuments(text: string, format: DocumentFormat, origin: string): JsonValue[] {
  if (format === 'plain') return [text];
  if (format === 'json') {
    try {
      return [toJsonValue(JSON.parse(text))];
    } catch (error) {
      throw new ScrapeError(`${origin}: invalid JSON: ${(error as Error).message}`);
    }
  }
  const documents = parseAllDocuments(text);
  const values: JsonValue[] = [];
  for (const document of documents) {
    if (document.errors.length > 0) {
      throw new ScrapeError(`${origin}: invalid YAML: ${document.errors[0].message}`);
    }
    const value = toJsonValue(document.toJS());
    if (value !== null) values.push(value);
  }
  return values;
}
