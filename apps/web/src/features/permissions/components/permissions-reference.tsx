import {
  PERMISSION_ACTIONS,
  PERMISSION_OBJECTS,
  PERMISSION_RESOURCE_TABS,
  PERMISSION_ROLE_SUBJECTS,
  PERMISSION_SUBJECT_TABS,
  PLAYBOOK_PERMISSION_ACTIONS,
} from '@opsdeck/contracts';
import type { ReactNode } from 'react';

const RESOURCE_TAB_MEANING: Record<(typeof PERMISSION_RESOURCE_TABS)[number], string> = {
  Catalog: 'one catalog item (config_id)',
  Component: 'one topology component (component_id)',
  Connection: 'one connection (connection_id)',
  Playbook: 'one playbook (playbook_id)',
  Global:
    'a whole kind of resource (object); for notifications, optionally only those matching a name, namespace and labels (object_selector)',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-base font-semibold text-gray-900">{title}</h2>
      {children}
    </section>
  );
}

function Codes({ values }: { values: readonly string[] }) {
  return (
    <ul className="flex flex-wrap gap-2">
      {values.map((value) => (
        <li key={value} className="rounded bg-gray-100 px-2 py-0.5 font-mono text-xs text-gray-800">
          {value}
        </li>
      ))}
    </ul>
  );
}

/**
 * /reference/permissions, the help link of the permission modal (settings §2.2): what each part
 * of a permission means, listed from the same contracts the server enforces.
 */
export function PermissionsReference() {
  return (
    <article className="flex max-w-3xl flex-col gap-6 text-sm text-gray-700">
      <h1 className="text-xl font-semibold text-gray-900">Permissions reference</h1>
      <p>
        A permission lets a subject take an action on a resource beyond what its roles allow, or with Deny
        forbids it even where the roles allow it. A Deny wins over every allow.
      </p>
      <Section title="Subjects">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          {PERMISSION_SUBJECT_TABS.map((tab) => (
            <div key={tab.type} className="contents">
              <dt className="font-medium">{tab.label}</dt>
              <dd>
                subject_type <code>{tab.type}</code>
                {tab.type === 'group' && <> (every person with the role)</>}
                {tab.type === 'team' && <> (every member of the team)</>}
              </dd>
            </div>
          ))}
        </dl>
        <p>Roles a permission can name:</p>
        <Codes values={PERMISSION_ROLE_SUBJECTS} />
      </Section>
      <Section title="Resources">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
          {PERMISSION_RESOURCE_TABS.map((tab) => (
            <div key={tab} className="contents">
              <dt className="font-medium">{tab}</dt>
              <dd>{RESOURCE_TAB_MEANING[tab]}</dd>
            </div>
          ))}
        </dl>
        <p>Global resource kinds:</p>
        <Codes values={PERMISSION_OBJECTS} />
      </Section>
      <Section title="Actions">
        <p>Every resource allows:</p>
        <Codes values={PERMISSION_ACTIONS} />
        <p>Playbook resources also allow:</p>
        <Codes values={PLAYBOOK_PERMISSION_ACTIONS} />
      </Section>
      <Section title="Narrowing">
        <p>
          Tags (key=value pairs) and Agents narrow a permission to the resources carrying all those tags
          (labels where a resource has no tags) and run by one of those agents.
        </p>
        <p>
          Permissions whose source is KubernetesCRD come from Permission resources in a cluster and are
          read-only here.
        </p>
      </Section>
    </article>
  );
}
