import { DEFAULT_HEALTH_TIME_RANGE } from '@opsdeck/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useUpdateSearchParams } from '../../../lib/url-state';
import {
  DEFAULT_GROUP_BY,
  DEFAULT_TAB_BY,
  parseLabelFilter,
  SORT_COLUMNS,
  type LabelFilter,
  type SortColumn,
} from '../lib/checks';
import { parsePivotCellType, PIVOT_ROW_BY_NAME, type PivotCellType } from '../lib/pivot';

/** URL parameters of the health page (core §2 'Health page (/health)'). */
export const HEALTH_PARAMS = {
  checkId: 'checkId',
  timeRange: 'timeRange',
  layout: 'layout',
  query: 'query',
  labels: 'labels',
  sortBy: 'sortBy',
  sortDesc: 'sortDesc',
  groupBy: 'groupBy',
  tabBy: 'tabBy',
  hidePassing: 'hidePassing',
  pivotBy: 'pivotBy',
  pivotCellType: 'pivotCellType',
  pivotLabel: 'pivotLabel',
} as const;

export type HealthLayout = 'table' | 'card';

export interface HealthParams {
  checkId?: string;
  timeRange: string;
  /** The timeRange parameter as given; the check panel picks its own default without it. */
  explicitTimeRange?: string;
  layout: HealthLayout;
  query: string;
  labels: LabelFilter;
  /** Undefined: the default sort by name. */
  sortBy?: SortColumn;
  sortDesc: boolean;
  groupBy: string;
  tabBy: string;
  hidePassing: boolean;
  /** A label key: when set the checks show as a pivot with one column per value of it. */
  pivotBy?: string;
  pivotCellType: PivotCellType;
  /** Rows of the pivot: check names, or the values of this label key. */
  pivotLabel: string;
}

export function readHealthParams(params: URLSearchParams): HealthParams {
  const sortBy = params.get(HEALTH_PARAMS.sortBy);
  return {
    checkId: params.get(HEALTH_PARAMS.checkId) || undefined,
    timeRange: params.get(HEALTH_PARAMS.timeRange) || DEFAULT_HEALTH_TIME_RANGE,
    explicitTimeRange: params.get(HEALTH_PARAMS.timeRange) || undefined,
    layout: params.get(HEALTH_PARAMS.layout) === 'card' ? 'card' : 'table',
    query: params.get(HEALTH_PARAMS.query) ?? '',
    labels: parseLabelFilter(params.get(HEALTH_PARAMS.labels)),
    sortBy: SORT_COLUMNS.includes(sortBy as SortColumn) ? (sortBy as SortColumn) : undefined,
    sortDesc: params.get(HEALTH_PARAMS.sortDesc) === 'true',
    groupBy: params.get(HEALTH_PARAMS.groupBy) || DEFAULT_GROUP_BY,
    tabBy: params.get(HEALTH_PARAMS.tabBy) || DEFAULT_TAB_BY,
    hidePassing: params.get(HEALTH_PARAMS.hidePassing) !== 'false',
    pivotBy: params.get(HEALTH_PARAMS.pivotBy) || undefined,
    pivotCellType: parsePivotCellType(params.get(HEALTH_PARAMS.pivotCellType)),
    pivotLabel: params.get(HEALTH_PARAMS.pivotLabel) || PIVOT_ROW_BY_NAME,
  };
}

/** The page's state, read from the URL so a reload or a shared link shows the same page. */
export function useHealthParams(): [
  HealthParams,
  (changes: Partial<Record<keyof HealthParams, string | undefined>>) => void,
] {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const value = useMemo(() => readHealthParams(params), [params]);
  const set = useCallback(
    (changes: Partial<Record<keyof HealthParams, string | undefined>>) =>
      update((draft) => {
        for (const [key, next] of Object.entries(changes)) {
          if (next === undefined || next === '') draft.delete(key);
          else draft.set(key, next);
        }
      }),
    [update],
  );
  return [value, set];
}
