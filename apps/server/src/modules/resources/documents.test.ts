import { describe, expect, it } from 'vitest';
import { parseResourceDocuments } from './documents.js';

describe('parseResourceDocuments', () => {
  it('splits a multi-document file and numbers documents by their position', () => {
    const text = [
      '---',
      'apiVersion: mission-control.flanksource.com/v1',
      'kind: Team',
      'metadata: {name: a}',
      '---',
      '# only a comment',
      '---',
      'apiVersion: mission-control.flanksource.com/v1',
      'kind: Team',
      'metadata: {name: b}',
      '---',
      '',
    ].join('\n');
    const documents = parseResourceDocuments(text, 'teams.yaml');
    expect(documents.map((document) => document.origin)).toEqual([
      { file: 'teams.yaml', document: 1 },
      { file: 'teams.yaml', document: 3 },
    ]);
    expect(documents[1].content).toEqual({
      apiVersion: 'mission-control.flanksource.com/v1',
      kind: 'Team',
      metadata: { name: 'b' },
    });
    expect(documents.every((document) => document.yamlErrors.length === 0)).toBe(true);
  });

  it('returns nothing for an empty or comment-only file', () => {
    expect(parseResourceDocuments('', 'empty.yaml')).toEqual([]);
    expect(parseResourceDocuments('# nothing here\n', 'comments.yaml')).toEqual([]);
  });

  it('reports a syntax error with its line on the broken document only', () => {
    const text = 'kind: Team\nmetadata: {name: ok}\n---\nkind: Team\nmetadata:\n  name: [unclosed\n';
    const [first, second] = parseResourceDocuments(text, 'broken.yaml');
    expect(first.yamlErrors).toEqual([]);
    expect(second.origin).toEqual({ file: 'broken.yaml', document: 2 });
    expect(second.content).toBeUndefined();
    expect(second.yamlErrors[0]).toMatch(/line \d+/);
  });

  it('rejects duplicate keys instead of silently keeping the last', () => {
    const [document] = parseResourceDocuments('kind: Team\nkind: Canary\n', 'dup.yaml');
    expect(document.yamlErrors[0]).toMatch(/unique/i);
  });

  it('resolves anchors and merge keys', () => {
    const text = 'base: &base {icon: group}\nspec:\n  <<: *base\n  owner: me\n';
    const [document] = parseResourceDocuments(text, 'anchors.yaml');
    expect(document.content).toEqual({ base: { icon: 'group' }, spec: { icon: 'group', owner: 'me' } });
  });
});
