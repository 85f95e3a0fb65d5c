import { useSearchParams } from 'react-router';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { TimeRangePicker } from '../../../components/time-range-picker/time-range-picker';
import type { TimeRange } from '../../../lib/url-state/time-range-params';
import { useJobHistoryNames } from '../api/job-history';
import { DURATION_OPTIONS, RESOURCE_TYPE_OPTIONS, STATUS_OPTIONS } from '../lib/job-history-query';
import { FILTER_PARAMS, useJobHistoryFilterState } from './use-job-history-filters';

function FilterSelect({
  label,
  value,
  options,
  onChange,
  allLabel = 'All',
}: {
  label: string;
  value: string;
  options: readonly { label: string; value: string }[];
  onChange(value: string): void;
  allLabel?: string;
}) {
  return (
    <div className="flex items-center gap-2 text-sm text-gray-700">
      <span className="font-medium" aria-hidden>
        {label}
      </span>
      <SelectMenu
        compact
        aria-label={label}
        value={value}
        onChange={onChange}
        options={[{ value: '', label: allLabel }, ...options]}
        floating
      />
    </div>
  );
}

/** Job Name, Resource Type, Status, Duration and Time range (settings §2.1). */
export function JobHistoryFilters() {
  const [params] = useSearchParams();
  const { setFilter, timeRange, setTimeRange } = useJobHistoryFilterState();
  const names = useJobHistoryNames();
  const value = (name: string) => params.get(name) ?? '';
  return (
    <div role="group" aria-label="Filters" className="flex flex-wrap items-center gap-4">
      <FilterSelect
        label="Job Name"
        value={value(FILTER_PARAMS.name)}
        options={(names.data ?? []).map((name) => ({ label: name, value: name }))}
        onChange={(next) => setFilter(FILTER_PARAMS.name, next)}
      />
      <FilterSelect
        label="Resource Type"
        value={value(FILTER_PARAMS.resourceType)}
        options={RESOURCE_TYPE_OPTIONS}
        onChange={(next) => setFilter(FILTER_PARAMS.resourceType, next)}
      />
      <FilterSelect
        label="Status"
        value={value(FILTER_PARAMS.status)}
        options={STATUS_OPTIONS}
        onChange={(next) => setFilter(FILTER_PARAMS.status, next)}
      />
      <FilterSelect
        label="Duration"
        allLabel="None"
        value={value(FILTER_PARAMS.duration)}
        options={DURATION_OPTIONS.map((option) => ({ label: option.label, value: option.label }))}
        onChange={(next) => setFilter(FILTER_PARAMS.duration, next)}
      />
      <TimeRangePicker value={timeRange} onChange={(range: TimeRange | undefined) => setTimeRange(range)} />
    </div>
  );
}
