import { applicationSpecSchema, type ApplicationSpec } from '@opsdeck/contracts';
import { defineResourceKind, textOrNull, type SpecIssue } from '../../resource-kinds/index.js';

function selectorIssues(spec: ApplicationSpec): SpecIssue[] {
  const lists: [string, unknown[] | undefined][] = [
    ['spec.configs', spec.configs],
    ['spec.components', spec.components],
    ['spec.checks', spec.checks],
    ['spec.mapping.datasources', spec.mapping?.datasources],
    ...Object.entries(spec.mapping?.environments ?? {}).map(
      ([name, list]) => [`spec.mapping.environments.${name}`, list] as [string, unknown[]],
    ),
  ];
  const issues: SpecIssue[] = [];
  for (const [path, list] of lists)
    (list ?? []).forEach((selector, index) => {
      const fields = selector as Record<string, unknown>;
      const names = ['id', 'name', 'namespace', 'types', 'type', 'labelSelector', 'tagSelector'];
      if (!names.some((key) => fields[key] !== undefined && fields[key] !== ''))
        issues.push({
          path: `${path}[${index}]`,
          message: 'a selector needs a name, namespace, type or label selector',
        });
    });
  return issues;
}

/** Application (`mission-control.flanksource.com/v1`): resources chosen by selectors, with sections. */
export const applicationKind = defineResourceKind<ApplicationSpec>({
  kind: 'Application',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'applications',
  table: 'applications',
  spec: applicationSpecSchema,
  columns: (spec) => ({ description: textOrNull(spec.description) }),
  specIssues: (spec) => selectorIssues(spec as ApplicationSpec),
});
