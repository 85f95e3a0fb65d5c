import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  decodeFilterStates,
  encodeFilterStates,
  filterParamName,
  type FilterStates,
  type TriState,
} from './filter-encoding';
import { useUpdateSearchParams, type UpdateOptions } from './search-param';

export interface FilterParam {
  /** Included (1) and excluded (-1) values. */
  states: FilterStates;
  /** The state of one value (0 when neutral). */
  stateOf(value: string): TriState;
  /** Sets one value's state; 0 removes it. */
  setState(value: string, state: TriState, options?: UpdateOptions): void;
  /** Replaces every state at once. */
  setStates(states: FilterStates, options?: UpdateOptions): void;
  clear(options?: UpdateOptions): void;
}

/**
 * One filter held in the URL parameter `<filter>.filter` as 'value:1,other:-1'. Every change
 * returns to the first page because the result set changes.
 */
export function useFilterParam(filter: string): FilterParam {
  const name = filterParamName(filter);
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const raw = params.get(name);
  const states = useMemo(() => decodeFilterStates(raw), [raw]);

  const write = useCallback(
    (next: FilterStates, options?: UpdateOptions) =>
      update((draft) => {
        const encoded = encodeFilterStates(next);
        if (encoded) draft.set(name, encoded);
        else draft.delete(name);
        draft.delete('pageIndex');
      }, options),
    [name, update],
  );

  const stateOf = useCallback((value: string): TriState => states[value] ?? 0, [states]);
  const setState = useCallback(
    (value: string, state: TriState, options?: UpdateOptions) =>
      update((draft) => {
        const next = decodeFilterStates(draft.get(name));
        if (state === 0) delete next[value];
        else next[value] = state;
        const encoded = encodeFilterStates(next);
        if (encoded) draft.set(name, encoded);
        else draft.delete(name);
        draft.delete('pageIndex');
      }, options),
    [name, update],
  );
  const clear = useCallback((options?: UpdateOptions) => write({}, options), [write]);
  return { states, stateOf, setState, setStates: write, clear };
}
