export const INTEGRATIONS_PATH = '/settings/integrations';

/** Core §2: `/settings/integrations/{type}/{id}` opens the integration's editor (write needed). */
export const integrationEditorPath = (type: string, id: string) =>
  `${INTEGRATIONS_PATH}/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

/** What each `integration_type` is called in the list. */
export const INTEGRATION_TYPE_LABELS: Record<string, string> = {
  scrapers: 'Catalog Scraper',
  topologies: 'Topology',
  logging_backends: 'Log Backend',
};
