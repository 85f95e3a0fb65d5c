import { describe, expect, it } from 'vitest';
import {
  parseResourceDocuments,
  resourceSpecJsonSchema,
  validateResource,
  type ValidationIssue,
} from '../resources/index.js';
import { canaryKind } from './canary-kind.js';

function validate(yaml: string): { ok: true } | { ok: false; issues: ValidationIssue[] } {
  const [document] = parseResourceDocuments(yaml, 'checks.yaml');
  const result = validateResource(document);
  return result.ok ? { ok: true } : { ok: false, issues: result.issues };
}

const header = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: observability
spec:
  schedule: "@every 1m"
`;

describe('canary check entries of the types that run', () => {
  it('accepts the ecosystem forms of prometheus, alertmanager, ldap and webhook checks', () => {
    const result = validate(`${header}  prometheus:
    - name: queue-depth
      url: http://prometheus:9090
      query: max(queue_depth)
      test:
        expr: value < 100
  alertmanager:
    - name: critical-alerts
      url: http://alertmanager:9093
      alerts: [KubePodCrashLooping, "Disk.*"]
      filters:
        severity: critical
      exclude_filters:
        namespace: kube-system
      ignore: [Watchdog]
  ldap:
    - name: directory
      host: ldap://ldap.example.com:389
      auth:
        username:
          value: cn=admin,dc=example,dc=com
        password:
          valueFrom:
            secretKeyRef: { name: ldap, key: password }
      bindDN: ou=people,dc=example,dc=com
      userSearch: (&(objectClass=inetOrgPerson)(uid=*))
  webhook:
    name: deploy-hook
    token:
      value: s3cret
  kubernetes:
    - name: pods
      kind: Pod
`);
    expect(result).toEqual({ ok: true });
  });

  it('refuses bad entries with the path of the bad field, file and document', () => {
    const result = validate(`${header}  prometheus:
    - name: no-query
      url: http://prometheus:9090
  alertmanager:
    - name: bad-regex
      url: http://alertmanager:9093
      ignore: ["("]
  ldap:
    - name: nowhere
      bindDN: dc=example,dc=com
      userSearch: (uid=a
  webhook:
    token: s3cret
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map(({ path, file, document }) => ({ path, file, document }))).toEqual([
      { path: 'spec.prometheus[0].query', file: 'checks.yaml', document: 1 },
      { path: 'spec.alertmanager[0].ignore[0]', file: 'checks.yaml', document: 1 },
      { path: 'spec.ldap[0].host', file: 'checks.yaml', document: 1 },
      { path: 'spec.ldap[0].userSearch', file: 'checks.yaml', document: 1 },
      { path: 'spec.webhook.name', file: 'checks.yaml', document: 1 },
    ]);
    expect(result.issues[1].message).toMatch(/^invalid regular expression "\("/);
    expect(result.issues[2].message).toBe('a host (ldap://...), url or connection is required');
  });

  it('validates the other running types too (http, tcp, folder, ...) and leaves unsupported ones alone', () => {
    const result = validate(`${header}  http:
    - name: home
      url: http://localhost
      responseCodes: [200, "two hundred"]
  tcp:
    - endpoint: localhost:80
  folder:
    - name: backups
      path: /var/backups
      minCount: many
  s3:
    - bucketName: backups
  kubernetes:
    - anything: goes
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([
      'spec.http[0].responseCodes[1]',
      'spec.tcp[0].name',
      'spec.folder[0].minCount',
      'spec.s3[0].name',
      'spec.s3[0].objectPath',
    ]);
  });

  it('refuses a check list that is not a list', () => {
    const result = validate(`${header}  prometheus: "up"\n`);
    expect(result).toMatchObject({
      ok: false,
      issues: [{ path: 'spec.prometheus', message: 'must be a list of checks' }],
    });
  });

  it('describes these check types in the canary JSON Schema', () => {
    const schema = resourceSpecJsonSchema(canaryKind) as {
      properties: Record<string, { anyOf?: Array<{ type?: string; items?: { properties?: object } }> }>;
    };
    const fields = (key: string) =>
      Object.keys(
        schema.properties[key]?.anyOf?.find((option) => option.type === 'array')?.items?.properties ?? {},
      );
    expect(fields('prometheus')).toEqual(expect.arrayContaining(['name', 'url', 'host', 'query', 'test']));
    expect(fields('alertmanager')).toEqual(
      expect.arrayContaining(['alerts', 'filters', 'exclude_filters', 'ignore']),
    );
    expect(fields('ldap')).toEqual(expect.arrayContaining(['host', 'auth', 'bindDN', 'userSearch']));
    expect(fields('webhook')).toEqual(expect.arrayContaining(['name', 'token']));
    expect(schema.properties.webhook.anyOf?.map((option) => option.type)).toEqual(['array', 'object']);
  });
});
