import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** How one URL parameter maps to a typed value. `parse` returns undefined for absent or invalid text. */
export interface ParamCodec<T> {
  parse(raw: string): T | undefined;
  serialize(value: T): string;
}

export const stringParam: ParamCodec<string> = {
  parse: (raw) => (raw === '' ? undefined : raw),
  serialize: (value) => value,
};

/** Non-negative integers only; anything else reads as absent. */
export const integerParam: ParamCodec<number> = {
  parse: (raw) => (/^\d+$/.test(raw) ? Number.parseInt(raw, 10) : undefined),
  serialize: (value) => String(value),
};

/** 'yes' / 'no' flags, as the preferences store them in the URL. */
export const yesNoParam: ParamCodec<boolean> = {
  parse: (raw) => (raw === 'yes' ? true : raw === 'no' ? false : undefined),
  serialize: (value) => (value ? 'yes' : 'no'),
};

/** One of a fixed list of strings. */
export function enumParam<const T extends string>(values: readonly T[]): ParamCodec<T> {
  return {
    parse: (raw) => (values.includes(raw as T) ? (raw as T) : undefined),
    serialize: (value) => value,
  };
}

export interface UpdateOptions {
  /** Replace the history entry instead of pushing one. Default false. */
  replace?: boolean;
}

/**
 * Returns a function that changes several search parameters in one navigation, so updates that
 * belong together (a page size and its page index) never race each other.
 */
export function useUpdateSearchParams(): (
  mutate: (params: URLSearchParams) => void,
  options?: UpdateOptions,
) => void {
  const [, setSearchParams] = useSearchParams();
  return useCallback(
    (mutate, options) => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          mutate(next);
          return next;
        },
        { replace: options?.replace ?? false },
      );
    },
    [setSearchParams],
  );
}

/**
 * A typed URL parameter: the parsed value (or the default), and a setter. Setting the default
 * or undefined removes the parameter so URLs stay short.
 */
export function useSearchParam<T>(
  name: string,
  codec: ParamCodec<T>,
  defaultValue: T,
): [T, (value: T | undefined, options?: UpdateOptions) => void] {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const raw = params.get(name);
  const parsed = raw === null ? undefined : codec.parse(raw);
  const value = parsed === undefined ? defaultValue : parsed;
  const setValue = useCallback(
    (next: T | undefined, options?: UpdateOptions) => {
      update((draft) => {
        if (next === undefined || Object.is(next, defaultValue)) draft.delete(name);
        else draft.set(name, codec.serialize(next));
      }, options);
    },
    [codec, defaultValue, name, update],
  );
  return [value, setValue];
}
