import { describe, expect, it } from 'vitest';
import { scrapeConfigSpecIssues } from './spec-validation.js';

describe('scrapeConfigSpecIssues', () => {
  it('accepts valid JSONPaths and expressions of every kind', () => {
    expect(
      scrapeConfigSpecIssues({
        schedule: '@every 5m',
        file: [
          {
            type: 'Npm::Package',
            id: '$.name',
            name: "$['name']",
            health: { expr: "config.private ? 'healthy' : 'warning'" },
            status: { javascript: 'config.version + "-x"' },
            description: { template: '{{ .config.description }}' },
            items: '$.items[*]',
            tags: [
              { name: 'env', jsonpath: '$.env' },
              { name: 'team', value: 'a' },
            ],
            labels: { app: '$.metadata.labels.app' },
            createFields: ['created', '$.meta.created'],
            paths: ['package.json'],
            transform: {
              script: { jsonpath: '$.items[?(@.enabled == true)]' },
              exclude: [{ jsonpath: '$..secret' }],
              mask: [{ selector: "type == 'x'", jsonpath: '$.password', value: 'md5sum' }],
              relationship: [{ filter: "name == 'a'", name: { expr: 'config.peer' }, type: { value: 'T' } }],
              changes: { exclude: ['change_type == "diff"'], mapping: [{ filter: 'true', type: 'X' }] },
            },
          },
        ],
        http: { url: 'http://x', pagination: { nextPageExpr: 'response.next', reduce: 'pages' } },
        kubernetes: [{ health: '$[' }],
      }),
    ).toEqual([]);
  });

  it('refuses broken JSONPaths with the field path', () => {
    expect(
      scrapeConfigSpecIssues({
        file: [
          { id: '$.name', health: '$.status[', paths: ['a'] },
          { id: '$.a)b', items: 'items', tags: [{ name: 'x', jsonpath: '$[?(@.x >)]' }] },
        ],
      }).map((issue) => issue.path),
    ).toEqual([
      'spec.file[0].health',
      'spec.file[1].id',
      'spec.file[1].items',
      'spec.file[1].tags[0].jsonpath',
    ]);
    const [issue] = scrapeConfigSpecIssues({ file: [{ health: '$.status[' }] });
    expect(issue.message).toMatch(/^invalid JSONPath: unclosed \[/);
  });

  it('refuses broken CEL, JavaScript and Go templates with the field path', () => {
    const issues = scrapeConfigSpecIssues({
      exec: {
        script: 'echo {}',
        health: { expr: 'config.a ==' },
        status: { javascript: 'return (' },
        description: { template: '{{ .name ' },
        transform: {
          relationship: [{ filter: "name == 'a" }],
          changes: { exclude: ['(('], mapping: [{ filter: 'a ? b' }] },
        },
      },
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      'spec.exec[0].status.javascript',
      'spec.exec[0].health.expr',
      'spec.exec[0].description.template',
      'spec.exec[0].transform.relationship[0].filter',
      'spec.exec[0].transform.changes.exclude[0]',
      'spec.exec[0].transform.changes.mapping[0].filter',
    ]);
    expect(issues[0].message).toMatch(/^invalid JavaScript: /);
    expect(issues[1].message).toMatch(/^invalid CEL: /);
    expect(issues[2].message).toMatch(/^invalid Go template: /);
  });

  it('refuses a spec that is not a mapping and entries that are not mappings', () => {
    expect(scrapeConfigSpecIssues([])).toEqual([{ path: 'spec', message: 'must be a mapping' }]);
    expect(scrapeConfigSpecIssues({ file: ['x'] })).toEqual([
      { path: 'spec.file[0]', message: 'must be a mapping' },
    ]);
  });
});
