import type { LogSourcesResponse, LogsRequest } from '@opsdeck/contracts';
import clsx from 'clsx';
import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button/button';
import { EmptyState } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { SelectMenu, type SelectMenuOption } from '../../../components/select-menu/select-menu';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { TagList } from '../../../components/tag-list/tag-list';
import { resolveTimeRange } from '../../../components/time-range-picker/time-range';
import { UrlTimeRangePicker } from '../../../components/time-range-picker/time-range-picker';
import { ApiError } from '../../../lib/api-client';
import { useDateFormatter } from '../../../lib/preferences';
import { stringParam, useSearchParam } from '../../../lib/url-state/search-param';
import { useTimeRangeParams } from '../../../lib/url-state/time-range-params';
import { useLogSources } from '../api/log-sources';
import { useSearchLogs } from '../api/search-logs';
import { filterLines, histogramBars, levelsOf } from '../lib/histogram';
import { LogHistogram } from './log-histogram';

/** The range of a search without one in the URL: the last hour. */
const DEFAULT_RANGE_MS = 60 * 60 * 1000;

const LEVEL_TONES: Record<string, string> = {
  fatal: 'bg-red-100 text-red-800',
  error: 'bg-red-100 text-red-800',
  warn: 'bg-yellow-100 text-yellow-800',
  info: 'bg-blue-100 text-blue-800',
};

/** `backend:<name>`, `component:<id>` or `config:<id>` → the request's name or id. */
function sourceRequest(source: string): Pick<LogsRequest, 'id' | 'name'> | undefined {
  const [kind, ...rest] = source.split(':');
  const value = rest.join(':');
  if (value === '') return undefined;
  return kind === 'backend' ? { name: value } : { id: value };
}

/**
 * The sources a search may read, each kind named in its label (the menu has no groups):
 * components and config items that have logs, then every logging backend.
 */
function sourceOptions({ backends, components, configs }: LogSourcesResponse): SelectMenuOption[] {
  return [
    ...components.map((entry) => ({
      value: `component:${entry.id}`,
      label: `Component: ${entry.name ?? entry.id} (${entry.type ?? 'component'})`,
    })),
    ...configs.map((entry) => ({
      value: `config:${entry.id}`,
      label: `Config item: ${entry.name ?? entry.id} (${entry.type ?? 'config'})`,
    })),
    ...backends.map((backend) => ({
      value: `backend:${backend.name}`,
      label: `Backend: ${backend.name}${backend.type ? ` (${backend.type})` : ''}`,
    })),
  ];
}

function SearchForm({ query, onSearch }: { query: string; onSearch(query: string): void }) {
  const [text, setText] = useState(query);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text);
  };
  return (
    <form role="search" aria-label="Log search" onSubmit={submit} className="flex items-end gap-2">
      <FormField label="Query" className="w-96">
        <Input
          compact
          value={text}
          placeholder='words, key=value, level=error, -exclude, or LogQL {app="web"}'
          onChange={(event) => setText(event.target.value)}
        />
      </FormField>
      <Button type="submit" variant="primary">
        Search
      </Button>
    </form>
  );
}

/**
 * /logs (core §2): pick a backend, a component or a config item that has logs, a query and a time
 * range; the lines show newest first with time, level and labels, filterable by level and text,
 * under a histogram of counts over the range (the server's, of every line the query matches; the
 * level and text filters narrow the returned lines only). Everything but the filters lives in the URL.
 */
export function LogsPage() {
  const sources = useLogSources();
  const [source, setSource] = useSearchParam('source', stringParam, '');
  const [query, setQuery] = useSearchParam('query', stringParam, '');
  const [level, setLevel] = useSearchParam('level', stringParam, '');
  const [filter, setFilter] = useState('');
  const { timeRange } = useTimeRangeParams();
  const { formatDate } = useDateFormatter();
  // The request's ends are fixed when the search parameters change, not at every render.
  const [searchedAt, setSearchedAt] = useState(() => Date.now());
  const target = sourceRequest(source);
  const request = useMemo((): LogsRequest | undefined => {
    if (!target) return undefined;
    const resolved = timeRange ? resolveTimeRange(timeRange) : undefined;
    const to = resolved?.to ?? new Date(searchedAt);
    const from = resolved?.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    return { ...target, query, start: from.toISOString(), end: to.toISOString(), limit: 1000 };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- target is derived from source
  }, [source, query, timeRange, searchedAt]);
  const search = useSearchLogs(request);
  const lines = useMemo(() => search.data?.results ?? [], [search.data]);
  const shown = useMemo(() => filterLines(lines, level, filter), [lines, level, filter]);
  // Counted by the server over every line of the range the query matches, not only those returned.
  const buckets = useMemo(() => histogramBars(search.data?.histogram ?? []), [search.data]);

  if (sources.isPending) return <PageSkeleton label="Loading log sources" />;
  if (sources.isError) throw sources.error;

  return (
    <section aria-label="Logs" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="Source" className="w-72">
          <SelectMenu
            compact
            className="w-72"
            value={source}
            onChange={setSource}
            placeholder="Select a source"
            options={sourceOptions(sources.data)}
          />
        </FormField>
        <SearchForm
          key={query}
          query={query}
          onSearch={(text) => {
            setQuery(text);
            setSearchedAt(Date.now());
          }}
        />
        <UrlTimeRangePicker placeholder="Last 1 hour" />
        <Button
          onClick={() => {
            setSearchedAt(Date.now());
            void search.refetch();
          }}
          disabled={!request || search.isFetching}
        >
          {search.isFetching ? 'Loading...' : 'Refresh'}
        </Button>
      </div>

      {!target && (
        <EmptyState message="Select a component, config item or logging backend to read its logs" />
      )}
      {search.isError && (
        <div role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {search.error instanceof ApiError ? search.error.message : String(search.error)}
        </div>
      )}
      {target && search.data && (
        <>
          <div className="flex flex-wrap items-end gap-3">
            <p className="text-sm text-gray-700" aria-live="polite">
              {search.data.total === lines.length
                ? `${lines.length} lines`
                : `${lines.length} newest of ${search.data.total} lines`}
              {shown.length !== lines.length && `, ${shown.length} shown`}
            </p>
            <FormField label="Level" className="w-36">
              <SelectMenu
                compact
                className="w-36"
                value={level}
                onChange={setLevel}
                options={[
                  { value: '', label: 'All levels' },
                  ...levelsOf(lines).map((entry) => ({ value: entry })),
                ]}
              />
            </FormField>
            <FormField label="Filter" className="w-64">
              <Input compact value={filter} onChange={(event) => setFilter(event.target.value)} />
            </FormField>
          </div>
          <LogHistogram buckets={buckets} />
          {shown.length === 0 ? (
            <EmptyState message="No log lines match" />
          ) : (
            <table aria-label="Log lines" className="w-full table-fixed border-collapse text-xs">
              <thead className="bg-gray-50 text-left text-gray-600">
                <tr>
                  <th className="w-44 px-2 py-1">Time</th>
                  <th className="w-16 px-2 py-1">Level</th>
                  <th className="px-2 py-1">Message</th>
                  <th className="w-72 px-2 py-1">Labels</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((line, index) => (
                  <tr key={`${line.timestamp}-${index}`} className="border-t border-gray-100 align-top">
                    <td className="px-2 py-1 whitespace-nowrap text-gray-700">
                      {formatDate(line.timestamp, { format: 'timestamp' })}
                    </td>
                    <td className="px-2 py-1">
                      {line.level && (
                        <span
                          className={clsx(
                            'rounded px-1',
                            LEVEL_TONES[line.level] ?? 'bg-gray-100 text-gray-700',
                          )}
                        >
                          {line.level}
                        </span>
                      )}
                    </td>
                    <td className="px-2 py-1 font-mono break-words whitespace-pre-wrap">{line.message}</td>
                    <td className="px-2 py-1">
                      <TagList tags={line.labels} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
