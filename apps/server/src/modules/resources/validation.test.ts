import path from 'node:path';
import { SCHEDULE_PRESETS } from '@opsdeck/contracts';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseResourceDocuments, type ResourceDocument } from './documents.js';
import { connectionKind } from './kinds/connection.js';
import { resourceKinds, findResourceKind, kindAliases, resolveResourceKind } from './registry.js';
import { collectResourceFiles, readResourceFile } from './resource-files.js';
import { formatFieldPath, resourceRowIssues, validateResource, type ValidationIssue } from './validation.js';

const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../demo');

function document(content: unknown): ResourceDocument {
  return { origin: { file: 'test.yaml', document: 2 }, content, yamlErrors: [] };
}

function canary(spec: unknown, metadata: Record<string, unknown> = { name: 'web' }) {
  return document({ apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata, spec });
}

function issues(content: ResourceDocument): ValidationIssue[] {
  const result = validateResource(content);
  if (result.ok) throw new Error('expected the document to be invalid');
  return result.issues;
}

describe('validateResource', () => {
  it('accepts a valid resource, defaults the namespace and keeps unknown fields as written', () => {
    const spec = {
      schedule: '@every 5m',
      http: [{ name: 'home', url: 'http://localhost', futureField: { x: 1 } }],
    };
    const result = validateResource(canary(spec, { name: 'web', labels: { team: 'platform' } }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.resource.namespace).toBe('default');
    expect(result.resource.labels).toEqual({ team: 'platform' });
    expect(result.resource.spec).toEqual(spec);
    expect(result.resource.definition.table).toBe('canaries');
  });

  it('reports spec errors with their field path, the document and the file', () => {
    const found = issues(canary({ schedule: 'every five minutes', replicas: -1, severity: 'urgent' }));
    expect(found.map((issue) => issue.path)).toEqual(['spec.schedule', 'spec.replicas', 'spec.severity']);
    expect(found.every((issue) => issue.file === 'test.yaml' && issue.document === 2)).toBe(true);
    expect(found[0].message).toContain('Invalid schedule "every five minutes"');
    expect(found[1].message).toMatch(/>=\s*0/);
  });

  it('accepts cron, @every durations and every schedule preset of the editors', () => {
    for (const schedule of ['*/5 * * * *', '0 */2 * * * *', ...SCHEDULE_PRESETS]) {
      expect(validateResource(canary({ schedule })).ok, schedule).toBe(true);
    }
    expect(issues(canary({ interval: 1.5 }))[0].path).toBe('spec.interval');
  });

  it('reports nested paths with indexes and quoted keys', () => {
    const scrape = document({
      apiVersion: 'configs.flanksource.com/v1',
      kind: 'ScrapeConfig',
      metadata: { name: 'files', labels: { 'app.kubernetes.io/name': 3 } },
      spec: {},
    });
    expect(issues(scrape).map((issue) => issue.path)).toEqual(['metadata.labels["app.kubernetes.io/name"]']);
    const retention = document({
      apiVersion: 'configs.flanksource.com/v1',
      kind: 'ScrapeConfig',
      metadata: { name: 'files' },
      spec: {
        retention: {
          changes: [
            { name: 'diff', age: '7d' },
            { name: 'x', age: 'a week' },
          ],
        },
      },
    });
    const [issue] = issues(retention);
    expect(issue.path).toBe('spec.retention.changes[1].age');
    expect(issue.message).toBe('must be a duration such as 30s, 5m, 1h30m or 7d');
  });

  it('names the apiVersion, the kind and the supported kinds for an unknown kind', () => {
    const [issue] = issues(
      document({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }),
    );
    expect(issue.path).toBe('kind');
    expect(issue.message).toContain('unknown resource kind "Widget" (apiVersion example.com/v1)');
    for (const kind of resourceKinds())
      expect(issue.message).toContain(`${kind.kind} (${kind.apiVersions[0]})`);
  });

  it('rejects a known kind under another apiVersion', () => {
    const [issue] = issues(
      document({ apiVersion: 'canaries.flanksource.com/v2', kind: 'Canary', metadata: { name: 'c' } }),
    );
    expect(issue.message).toBe(
      'Canary resources use apiVersion canaries.flanksource.com/v1, not "canaries.flanksource.com/v2"',
    );
  });

  it('requires the envelope: a mapping with apiVersion, kind and metadata.name', () => {
    expect(issues(document(['a', 'list']))[0].message).toMatch(/must be a mapping/);
    expect(issues(document({ kind: 'Team', metadata: {} })).map((issue) => issue.path)).toEqual([
      'apiVersion',
      'metadata.name',
    ]);
    expect(issues(canary({}, { name: 'a/b' }))[0].path).toBe('metadata.name');
    expect(issues(canary('not a mapping'))[0]).toMatchObject({ path: 'spec', message: 'must be a mapping' });
  });

  it('turns YAML syntax errors into issues of the document', () => {
    const [broken] = parseResourceDocuments('kind: [', 'bad.yaml');
    const [issue] = issues(broken);
    expect(issue).toMatchObject({ file: 'bad.yaml', document: 1, path: '' });
  });

  it('validates the fields each kind knows', () => {
    const mc = (kind: string, spec: unknown) =>
      document({ apiVersion: 'mission-control.flanksource.com/v1', kind, metadata: { name: 'x' }, spec });
    expect(
      issues(mc('Permission', { subject: { team: 'a', person: 'b' }, actions: ['read'] }))[0],
    ).toMatchObject({
      path: 'spec.subject',
    });
    expect(issues(mc('Permission', { subject: { group: 'sre' }, actions: ['fly'] }))[0].path).toBe(
      'spec.actions[0]',
    );
    expect(issues(mc('Notification', { events: [] }))[0].path).toBe('spec.events');
    expect(issues(mc('Connection', { url: 'http://x' }))[0].path).toBe('spec.type');
    expect(validateResource(mc('Connection', { postgres: { url: 'postgres://db' } })).ok).toBe(true);
    expect(
      issues(mc('NotificationSilence', { from: '2025-02-01T00:00:00Z', until: '2025-01-01T00:00:00Z' }))[0],
    ).toMatchObject({
      path: 'spec.until',
      message: 'must be later than from',
    });
    expect(issues(mc('Playbook', { parameters: [{ name: 'p', type: 'slider' }] }))[0].path).toBe(
      'spec.parameters[0].type',
    );
    expect(validateResource(mc('Team', undefined)).ok).toBe(true);
  });
});

describe('connection spec storage', () => {
  it('keeps secret references in the stored spec and drops inline credentials', () => {
    const stored = connectionKind.storedSpec!({
      type: 'postgres',
      url: 'postgres://user:pw@db/app',
      username: { value: 'user' },
      password: { valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      properties: { sslmode: 'disable' },
    });
    expect(stored).toEqual({
      type: 'postgres',
      password: { valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      properties: { sslmode: 'disable' },
    });
  });
});

describe('kind registry', () => {
  it('finds kinds by lower-case kind, plural and table name', () => {
    expect(findResourceKind('canary')?.kind).toBe('Canary');
    expect(findResourceKind('Canaries')?.kind).toBe('Canary');
    expect(findResourceKind('config_scrapers')?.kind).toBe('ScrapeConfig');
    expect(findResourceKind('scrapeconfig')?.kind).toBe('ScrapeConfig');
    expect(findResourceKind('widgets')).toBeUndefined();
    expect(() => resolveResourceKind('widgets')).toThrow(
      /Unknown resource kind "widgets". Supported: teams, /,
    );
  });

  it('has thirteen kinds with distinct names and tables', () => {
    expect(
      resourceKinds()
        .map((kind) => kind.kind)
        .sort(),
    ).toEqual(
      [
        'Canary',
        'ConfigMap',
        'Connection',
        'IncidentRule',
        'Notification',
        'NotificationSilence',
        'Permission',
        'Playbook',
        'ScrapeConfig',
        'Secret',
        'Team',
        'Topology',
        'View',
        'Application',
        'LoggingBackend',
      ].sort(),
    );
    const aliases = resourceKinds().flatMap(kindAliases);
    expect(new Set(aliases).size).toBe(aliases.length);
  });
});

describe('formatFieldPath', () => {
  it('joins keys with dots, indexes in brackets and quotes odd keys', () => {
    expect(formatFieldPath(['spec', 'http', 0, 'url'])).toBe('spec.http[0].url');
    expect(formatFieldPath(['metadata', 'labels', 'a.b/c'])).toBe('metadata.labels["a.b/c"]');
    expect(formatFieldPath([])).toBe('');
  });
});

describe('demo directory', () => {
  it('holds only valid resources, including at least one Team', async () => {
    const { files } = await collectResourceFiles([DEMO_DIR]);
    expect(files.length).toBeGreaterThan(0);
    const kinds: string[] = [];
    for (const file of files) {
      for (const content of await readResourceFile(file)) {
        const result = validateResource(content);
        expect(result.ok ? [] : result.issues).toEqual([]);
        if (result.ok) kinds.push(result.resource.definition.kind);
      }
    }
    expect(kinds).toContain('Team');
  });
});

describe('resourceRowIssues', () => {
  const file = [{ type: 'T', id: '$.id', paths: ['a.json'] }];

  it('refuses a derived column sent without a spec, or with another value than the spec derives', () => {
    expect(resourceRowIssues('config_scrapers', { schedule: '@hourly' })).toEqual([
      { path: 'schedule', message: 'is derived from the spec: write the spec instead' },
    ]);
    expect(
      resourceRowIssues('config_scrapers', { spec: { schedule: '@daily', file }, schedule: '@hourly' }),
    ).toEqual([
      {
        path: 'schedule',
        message: 'is derived from the spec ("@daily"): leave it out or send the same value',
      },
    ]);
    expect(resourceRowIssues('config_scrapers', { spec: { file }, schedule: '@hourly' })).toMatchObject([
      { path: 'schedule' },
    ]);
  });

  it('accepts a derived column equal to the spec, and rows that leave both alone', () => {
    expect(
      resourceRowIssues('config_scrapers', { spec: { schedule: '@daily', file }, schedule: '@daily' }),
    ).toEqual([]);
    expect(resourceRowIssues('config_scrapers', { spec: { file }, schedule: null })).toEqual([]);
    expect(resourceRowIssues('config_scrapers', { labels: { a: 'b' } })).toEqual([]);
    // Kinds that declare no derived columns keep their columns writable.
    expect(resourceRowIssues('topologies', { schedule: '@hourly' })).toEqual([]);
  });

  it("derives a canary's icon and schedule from its spec, the deprecated interval included", () => {
    expect(
      resourceRowIssues('canaries', {
        spec: { interval: 90, icon: 'http' },
        schedule: '@every 90s',
        icon: 'http',
      }),
    ).toEqual([]);
    expect(resourceRowIssues('canaries', { spec: {}, schedule: null, icon: null })).toEqual([]);
    expect(resourceRowIssues('canaries', { schedule: '@hourly', icon: 'dns' })).toMatchObject([
      { path: 'icon' },
      { path: 'schedule' },
    ]);
    expect(resourceRowIssues('canaries', { spec: { interval: 90 }, schedule: '@every 90m' })).toMatchObject([
      {
        path: 'schedule',
        message: 'is derived from the spec ("@every 90s"): leave it out or send the same value',
      },
    ]);
    // Its spec is checked even when no column is sent: the database derives them from it.
    expect(resourceRowIssues('canaries', { spec: { interval: 'often' } })).toMatchObject([
      { path: 'spec.interval' },
    ]);
  });

  it('reports an invalid schedule at its spec path before comparing columns', () => {
    expect(
      resourceRowIssues('config_scrapers', { spec: { schedule: 'often', file }, schedule: 'often' }),
    ).toMatchObject([{ path: 'spec.schedule' }]);
  });
});
