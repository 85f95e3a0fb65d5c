import {
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Description,
  Field,
  Label,
} from '@headlessui/react';
import clsx from 'clsx';
import { useEffect, useState } from 'react';
import { ResourceIcon } from '../resource-icon/resource-icon';
import { RESOURCE_QUERY_HINT } from './parse-resource-query';

/** Search debounce (core §5, settings §9). */
export const RESOURCE_SEARCH_DEBOUNCE_MS = 300;
/** Past this many options the list renders only the rows in view (settings §5). */
export const WINDOWING_THRESHOLD = 20;

export const START_TYPING_MESSAGE = 'Start typing to search';
export const NO_OPTIONS_MESSAGE = 'No options found';

/** One search result, as POST /resources/search returns them. */
export interface ResourceOption {
  id: string;
  name: string;
  type?: string;
  icon?: string;
}

export interface ResourceSelectorProps<T extends ResourceOption> {
  /** Visible label and accessible name. */
  label: string;
  /** Looks resources up; called 300 ms after typing stops, never for blank text. Aborted when superseded. */
  search(query: string, signal: AbortSignal): Promise<T[]>;
  value: T | null;
  onChange(value: T | null): void;
  /** Input placeholder. Default 'Search'. */
  placeholder?: string;
  /** Validation message shown under the field. */
  error?: string;
  disabled?: boolean;
  className?: string;
}

interface SearchState<T> {
  query: string;
  status: 'searching' | 'done' | 'failed';
  results: T[];
}

/**
 * Picks a check, component, config, connection or playbook by searching the server
 * (settings §2.10): debounced 300 ms, 'Start typing to search' with no input, 'No options found'
 * with no result, windowed rendering past 20 options.
 */
export function ResourceSelector<T extends ResourceOption>({
  label,
  search,
  value,
  onChange,
  placeholder = 'Search',
  error,
  disabled,
  className,
}: ResourceSelectorProps<T>) {
  const [query, setQuery] = useState('');
  const [state, setState] = useState<SearchState<T> | undefined>(undefined);
  const trimmed = query.trim();

  useEffect(() => {
    if (!trimmed) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState({ query: trimmed, status: 'searching', results: [] });
      search(trimmed, controller.signal).then(
        (results) => {
          if (!controller.signal.aborted) setState({ query: trimmed, status: 'done', results });
        },
        () => {
          if (!controller.signal.aborted) setState({ query: trimmed, status: 'failed', results: [] });
        },
      );
    }, RESOURCE_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [trimmed, search]);

  // Results of an older query are never shown for the current text.
  const current = trimmed && state?.query === trimmed ? state : undefined;
  const results = current?.status === 'done' ? current.results : [];
  const windowed = results.length > WINDOWING_THRESHOLD;
  let message: string | undefined;
  if (!trimmed) message = value ? undefined : START_TYPING_MESSAGE;
  else if (!current || current.status === 'searching') message = 'Searching...';
  else if (current.status === 'failed') message = 'Search failed';
  else if (results.length === 0) message = NO_OPTIONS_MESSAGE;

  const optionClass =
    'flex h-9 cursor-pointer items-center gap-2 px-3 text-sm text-gray-800 data-[focus]:bg-blue-50 data-[selected]:font-medium';
  const renderOption = (option: T) => (
    <>
      <ResourceIcon type={option.type} icon={option.icon} className="size-4 shrink-0 text-gray-500" />
      <span className="truncate">{option.name}</span>
      {option.type && <span className="ml-auto truncate text-xs text-gray-400">{option.type}</span>}
    </>
  );

  return (
    <Field disabled={disabled} className={clsx('flex flex-col gap-1', className)}>
      <Label className="text-sm font-medium text-gray-700">{label}</Label>
      <Combobox<T | null>
        value={value}
        onChange={(next) => {
          onChange(next);
          setQuery('');
        }}
        by="id"
        onClose={() => setQuery('')}
        virtual={windowed ? { options: results } : undefined}
      >
        <div className="relative">
          <ComboboxInput<T | null>
            displayValue={(option) => option?.name ?? ''}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={placeholder}
            aria-invalid={error ? true : undefined}
            className={clsx(
              'w-full rounded-md border px-3 py-1.5 text-sm',
              error ? 'border-red-500' : 'border-gray-300',
            )}
          />
          {windowed ? (
            // A fixed height: the virtual list draws the rows that fit its box, so a box sized by
            // its content (max-h, hidden while empty) would stay empty. Past 20 rows it is full.
            <ComboboxOptions
              modal={false}
              className="absolute z-30 mt-1 h-72 w-full overflow-auto rounded-md border border-gray-200 bg-white shadow-lg"
            >
              {({ option }: { option: T | undefined }) =>
                // Headless UI renders once with its previous option list right after switching to
                // windowed mode; that frame gets a hidden placeholder instead of an option.
                option ? (
                  <ComboboxOption value={option} className={clsx(optionClass, 'w-full')}>
                    {renderOption(option)}
                  </ComboboxOption>
                ) : (
                  <div hidden />
                )
              }
            </ComboboxOptions>
          ) : (
            <ComboboxOptions
              modal={false}
              className="absolute z-30 mt-1 max-h-72 w-full overflow-auto rounded-md border border-gray-200 bg-white shadow-lg empty:invisible"
            >
              {results.map((option) => (
                <ComboboxOption key={option.id} value={option} className={optionClass}>
                  {renderOption(option)}
                </ComboboxOption>
              ))}
            </ComboboxOptions>
          )}
        </div>
      </Combobox>
      <Description className="text-xs text-gray-500">{RESOURCE_QUERY_HINT}</Description>
      {message && (
        <p role="status" className="text-xs text-gray-500">
          {message}
        </p>
      )}
      {error && (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      )}
    </Field>
  );
}
