/** What a job row's details hold (settings §3). */
export interface JobDetails {
  errors?: unknown;
  scrape_summary?: unknown;
  summary?: unknown;
}

export type JobDetailsTabKey = 'errors' | 'scrape_summary' | 'summary';

export const JOB_DETAILS_TABS: readonly { key: JobDetailsTabKey; label: string }[] = [
  { key: 'errors', label: 'Errors' },
  { key: 'scrape_summary', label: 'Scrape Summary' },
  { key: 'summary', label: 'Reconcile Summary' },
];

export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Tabs with non-empty data, in the spec's order; none means no modal (settings §2.1). */
export function availableDetailTabs(details: unknown): (typeof JOB_DETAILS_TABS)[number][] {
  if (!details || typeof details !== 'object') return [];
  const record = details as Record<string, unknown>;
  return JOB_DETAILS_TABS.filter((tab) => !isEmptyValue(record[tab.key]));
}

export type ErrorEntry = { key?: string; text: string };

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Errors as a string, a list or a map of key to error text, flattened for display. */
export function errorEntries(errors: unknown): ErrorEntry[] {
  if (isEmptyValue(errors)) return [];
  if (typeof errors === 'string') return [{ text: errors }];
  if (Array.isArray(errors)) return errors.map((error) => ({ text: asText(error) }));
  if (typeof errors === 'object' && errors !== null)
    return Object.entries(errors).map(([key, error]) => ({ key, text: asText(error) }));
  return [{ text: asText(errors) }];
}
