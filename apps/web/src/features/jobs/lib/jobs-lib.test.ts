import { describe, expect, it } from 'vitest';
import { availableDetailTabs, errorEntries } from '../../../components/job-history-table/job-details';
import { jobHistorySearch } from './job-history-query';
import { agentLink, resourceLink } from './resource-links';

describe('jobHistorySearch', () => {
  it('builds filters, server-side order and paging', () => {
    const search = jobHistorySearch(
      {
        name: 'SyncCanaries',
        resourceType: 'config_scraper',
        status: 'FAILED',
        duration: '2m',
        from: new Date('2026-01-01T00:00:00Z'),
        to: new Date('2026-01-02T00:00:00Z'),
      },
      { pageIndex: 2, pageSize: 150, sortBy: 'duration_millis', sortOrder: 'asc' },
    );
    expect(search.get('name')).toBe('eq.SyncCanaries');
    expect(search.get('resource_type')).toBe('in.("config_scraper","catalog_scraper")');
    expect(search.get('status')).toBe('eq.FAILED');
    expect(search.get('duration_millis')).toBe('gte.120000');
    expect(search.getAll('time_start')).toEqual([
      'gte.2026-01-01T00:00:00.000Z',
      'lte.2026-01-02T00:00:00.000Z',
    ]);
    expect(search.get('order')).toBe('duration_millis.asc,time_start.desc');
    expect(search.get('limit')).toBe('150');
    expect(search.get('offset')).toBe('300');
  });

  it('defaults to newest first and ignores unknown values', () => {
    const search = jobHistorySearch(
      { status: 'BOGUS', resourceType: 'x', duration: '7h' },
      { pageIndex: 0, pageSize: 50, sortBy: 'details', sortOrder: 'asc' },
    );
    expect(search.get('order')).toBe('time_start.asc');
    expect(search.has('status')).toBe(false);
    expect(search.has('resource_type')).toBe(false);
    expect(search.has('duration_millis')).toBe(false);
    expect(jobHistorySearch({}, { pageIndex: 0, pageSize: 5, sortOrder: 'asc' }).get('order')).toBe(
      'time_start.desc',
    );
  });
});

describe('job details', () => {
  it('offers only the non-empty tabs, in order', () => {
    expect(availableDetailTabs({ errors: [], scrape_summary: {}, summary: '' })).toEqual([]);
    expect(availableDetailTabs(null)).toEqual([]);
    expect(availableDetailTabs({ errors: 'boom', summary: { added: 1 } }).map((tab) => tab.label)).toEqual([
      'Errors',
      'Reconcile Summary',
    ]);
  });

  it('shows errors given as a string, a list or a map', () => {
    expect(errorEntries('boom')).toEqual([{ text: 'boom' }]);
    expect(errorEntries(['a', 'b'])).toEqual([{ text: 'a' }, { text: 'b' }]);
    expect(errorEntries({ pod: 'not found' })).toEqual([{ key: 'pod', text: 'not found' }]);
  });
});

describe('links', () => {
  it('links a resource by its type and the agent by id', () => {
    expect(resourceLink('canary', 'c1')).toBe('/settings/canaries/c1');
    expect(resourceLink('config_scraper', 's1')).toBe('/catalog/scrapers/s1');
    expect(resourceLink('catalog_scraper', 's1')).toBe('/catalog/scrapers/s1');
    expect(resourceLink('topology', 't1')).toBe('/settings/topologies/t1');
    expect(resourceLink('config', 'x')).toBe('/catalog/x');
    expect(resourceLink('playbook', 'p')).toBe('/playbooks/p');
    expect(resourceLink('incident_rule', 'r1')).toBe('/settings/incident_rules/r1');
    expect(resourceLink('other', 'p')).toBeUndefined();
    expect(agentLink('a-1')).toBe('/settings/agents?id=a-1');
  });
});
