import { useFilterParam } from '../../lib/url-state/filter-params';
import { TriStateToggle } from './tri-state-toggle';

export interface TriStateFilterOption {
  value: string;
  /** Shown instead of the value. */
  label?: string;
  count?: number;
}

export interface TriStateFilterListProps {
  /** Filter name; its state lives in the URL parameter `<filter>.filter`. */
  filter: string;
  /** Heading and accessible name of the list. */
  title: string;
  options: readonly TriStateFilterOption[];
}

/** A list of include/exclude toggles bound to one `<filter>.filter` URL parameter. Needs a router. */
export function TriStateFilterList({ filter, title, options }: TriStateFilterListProps) {
  const { stateOf, setState, states, clear } = useFilterParam(filter);
  const active = Object.keys(states).length;
  return (
    <section aria-label={title} className="flex flex-col gap-1">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold tracking-wide text-gray-500 uppercase">{title}</h3>
        {active > 0 && (
          <button type="button" onClick={() => clear()} className="text-xs text-blue-600 hover:underline">
            Clear
          </button>
        )}
      </div>
      <ul className="flex flex-col gap-1">
        {options.map((option) => (
          <li key={option.value}>
            <TriStateToggle
              label={option.label ?? option.value}
              value={stateOf(option.value)}
              onChange={(next) => setState(option.value, next)}
              suffix={
                option.count === undefined ? undefined : (
                  <span className="text-xs text-gray-400">{option.count}</span>
                )
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
