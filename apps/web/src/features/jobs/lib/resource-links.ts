/** Where a job row's resource links to, by resource type (settings §2.1). */
export function resourceLink(
  resourceType: string | null | undefined,
  id: string | null | undefined,
): string | undefined {
  if (!id) return undefined;
  const encoded = encodeURIComponent(id);
  switch (resourceType) {
    case 'canary':
      return `/settings/canaries/${encoded}`;
    case 'config_scraper':
    case 'catalog_scraper':
      return `/catalog/scrapers/${encoded}`;
    case 'topology':
      return `/settings/topologies/${encoded}`;
    case 'config':
      return `/catalog/${encoded}`;
    case 'playbook':
      return `/playbooks/${encoded}`;
    case 'incident_rule':
      return `/settings/incident_rules/${encoded}`;
    default:
      return undefined;
  }
}

export function agentLink(agentId: string): string {
  return `/settings/agents?id=${encodeURIComponent(agentId)}`;
}
