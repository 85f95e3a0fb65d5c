import { loggingBackendSpecSchema, type LoggingBackendSpec } from '@opsdeck/contracts';
import { defineResourceKind, type SpecIssue } from '../../resource-kinds/index.js';
import { LOG_BACKENDS } from './backends/registry.js';

const CREDENTIAL_FIELDS = ['username', 'password', 'token', 'apiKey', 'bearer'];

/** What the schema cannot say: exactly one backend, a regex that compiles, no credentials in clear. */
export function loggingBackendSpecIssues(spec: Record<string, unknown>): SpecIssue[] {
  const named = LOG_BACKENDS.map((backend) => backend.type).filter((type) => spec[type] !== undefined);
  if (named.length === 0)
    return [{ path: 'spec', message: 'name one backend: file, opsdeck, postgres, loki or opensearch' }];
  if (named.length > 1) return [{ path: 'spec', message: `name one backend, not ${named.join(' and ')}` }];
  const issues: SpecIssue[] = [];
  const file = spec.file as Record<string, unknown> | undefined;
  if (file?.format === 'regex') {
    if (typeof file.pattern !== 'string' || file.pattern === '')
      issues.push({ path: 'spec.file.pattern', message: 'format regex needs a pattern with named groups' });
    else
      try {
        new RegExp(file.pattern);
      } catch (error) {
        issues.push({
          path: 'spec.file.pattern',
          message: `not a valid regular expression: ${(error as Error).message}`,
        });
      }
  }
  for (const remote of ['loki', 'opensearch']) {
    const value = spec[remote] as Record<string, unknown> | undefined;
    if (!value) continue;
    for (const field of CREDENTIAL_FIELDS)
      if (value[field] !== undefined)
        issues.push({
          path: `spec.${remote}.${field}`,
          message: 'credentials belong in a Connection: set connection: connection://<namespace>/<name>',
        });
    if (value.url === undefined && value.connection === undefined)
      issues.push({ path: `spec.${remote}.url`, message: 'url (or connection) is required' });
  }
  return issues;
}

/** LoggingBackend (`mission-control.flanksource.com/v1`): where a component's logs come from. */
export const loggingBackendKind = defineResourceKind<LoggingBackendSpec>({
  kind: 'LoggingBackend',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'loggingbackends',
  table: 'logging_backends',
  spec: loggingBackendSpecSchema,
  columns: () => ({}),
  specIssues: (spec) => loggingBackendSpecIssues(spec),
});
