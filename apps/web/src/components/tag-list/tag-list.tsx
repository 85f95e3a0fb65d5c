import clsx from 'clsx';
import { Minus, Plus } from 'lucide-react';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Popover } from '../popover/popover';
import { sortTags, type Tag } from './sort-tags';

export type TagFilterAction = 'include' | 'exclude';

/** Height of one row of chips including the gap, in rem; the collapsed list shows whole rows. */
const ROW_HEIGHT_REM = 1.75;

export interface TagListProps {
  tags: Readonly<Record<string, string>> | readonly Tag[] | null | undefined;
  /** Rows shown while collapsed; at least 1 (the default). */
  minVisibleRows?: number;
  /** Adds Include and Exclude actions to each tag's popover. */
  onFilter?(tag: Tag, action: TagFilterAction): void;
  className?: string;
}

/**
 * Sorted tag chips (account, namespace, name first). The list is cut to whole rows and can be
 * expanded when it overflows; each chip opens 'key: value' with Include and Exclude actions.
 */
export function TagList({ tags, minVisibleRows = 1, onFilter, className }: TagListProps) {
  const sorted = useMemo(() => sortTags(tags), [tags]);
  const rows = Math.max(1, Math.floor(minVisibleRows));
  const [expanded, setExpanded] = useState(false);
  const [overflowing, setOverflowing] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);

  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    const measure = () => setOverflowing(element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [sorted, rows, expanded]);

  if (sorted.length === 0) return null;
  return (
    <div className={clsx('flex items-start gap-1', className)}>
      <ul
        ref={listRef}
        aria-label="Tags"
        className="flex min-w-0 flex-1 flex-wrap gap-1 overflow-hidden"
        style={expanded ? undefined : { maxHeight: `${rows * ROW_HEIGHT_REM}rem` }}
      >
        {sorted.map((tag) => (
          <li key={`${tag.key}\u0000${tag.value}`} className="max-w-full">
            <TagChip tag={tag} onFilter={onFilter} />
          </li>
        ))}
      </ul>
      {(overflowing || expanded) && (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
          className="shrink-0 rounded px-1.5 py-0.5 text-xs text-blue-600 hover:bg-blue-50"
        >
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}

function TagChip({ tag, onFilter }: { tag: Tag; onFilter?: TagListProps['onFilter'] }) {
  const text = `${tag.key}: ${tag.value}`;
  return (
    <Popover
      className="max-w-full"
      trigger={<span className="truncate">{tag.value}</span>}
      triggerTitle={text}
      triggerLabel={text}
      triggerClassName="flex h-6 max-w-full items-center truncate rounded-md border border-gray-200 bg-gray-100 px-2 text-xs text-gray-700 hover:bg-gray-200"
      panelClassName="flex max-w-sm flex-col gap-2 p-2 text-xs"
    >
      {({ close }) => (
        <>
          <p className="break-all text-gray-800">{text}</p>
          {onFilter && (
            <div className="flex gap-1">
              <button
                type="button"
                onClick={() => {
                  onFilter(tag, 'include');
                  close();
                }}
                className="inline-flex items-center gap-1 rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-50"
              >
                <Plus className="size-3" aria-hidden />
                Include
              </button>
              <button
                type="button"
                onClick={() => {
                  onFilter(tag, 'exclude');
                  close();
                }}
                className="inline-flex items-center gap-1 rounded border border-gray-300 px-2 py-0.5 hover:bg-gray-50"
              >
                <Minus className="size-3" aria-hidden />
                Exclude
              </button>
            </div>
          )}
        </>
      )}
    </Popover>
  );
}
