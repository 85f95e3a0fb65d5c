import type { TopologyComponent } from '@opsdeck/contracts';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { TopologyCard } from './topology-card';

/** Below this many cards every card is drawn; above it only the rows near the viewport. */
export const VIRTUALIZE_FROM_CARDS = 120;
/** Gap between cards and rows, px (Tailwind `gap-3`). */
const GAP = 12;
/** A card's height before it is measured, px (name, type, one headline row, footer). */
const ESTIMATED_ROW_PX = 132;

const estimateSize = () => ESTIMATED_ROW_PX + GAP;
/** A row's drawn height (its estimate where layout gives none, as in jsdom). */
const measureElement = (element: Element) => element.getBoundingClientRect().height || estimateSize();

export interface CardGridProps {
  components: readonly TopologyComponent[];
  /** Card Width preference, px. */
  cardWidth: number;
  /** The section's accessible name. */
  label: string;
}

/**
 * The section's inner width and where it starts on the page, measured when it mounts and again
 * as the window or the sidebar resizes it.
 */
function useLayout() {
  const [layout, setLayout] = useState({ width: 0, top: 0 });
  const node = useRef<HTMLElement | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    node.current = element;
    if (!element) return;
    const measure = () =>
      setLayout({ width: element.clientWidth, top: element.getBoundingClientRect().top + window.scrollY });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [layout, ref, node] as const;
}

/**
 * Component cards in wrapping rows. Long lists are virtualised by row: the page scrolls as before
 * (spacers keep its height), only the rows near the viewport are mounted, and Tab / Shift+Tab from
 * the last / first mounted card scroll the next row in and move focus into it.
 */
export function CardGrid({ components, cardWidth, label }: CardGridProps) {
  const [{ width, top: scrollMargin }, sectionRef, sectionNode] = useLayout();
  const virtual = components.length > VIRTUALIZE_FROM_CARDS;
  const columns = Math.max(1, Math.floor((width + GAP) / (Math.min(cardWidth, width || cardWidth) + GAP)));
  const rows = useMemo(() => {
    const chunks: TopologyComponent[][] = [];
    for (let index = 0; index < components.length; index += columns)
      chunks.push(components.slice(index, index + columns));
    return chunks;
  }, [components, columns]);
  const getItemKey = useCallback((index: number) => rows[index][0].id, [rows]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize,
    measureElement,
    overscan: 3,
    scrollMargin,
    enabled: virtual,
    getItemKey,
  });
  const pendingFocus = useRef<{ row: number; last: boolean } | null>(null);

  const windowed = virtual ? virtualizer.getVirtualItems() : [];
  const drawn = virtual ? windowed.map((item) => item.index) : rows.map((_, index) => index);
  const first = drawn[0] ?? 0;
  const last = drawn[drawn.length - 1] ?? 0;

  // After Tab scrolled a row in: focus its first (or, going back, last) link once it is mounted.
  useLayoutEffect(() => {
    const wanted = pendingFocus.current;
    const section = sectionNode.current;
    if (!wanted || !section) return;
    const links = section.querySelectorAll<HTMLElement>(`[data-row="${wanted.row}"] a[href]`);
    if (links.length === 0) return;
    pendingFocus.current = null;
    (wanted.last ? links[links.length - 1] : links[0]).focus();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const section = sectionNode.current;
    if (!virtual || event.key !== 'Tab' || !section) return;
    const links = section.querySelectorAll<HTMLElement>('a[href]');
    const edge = event.shiftKey ? links[0] : links[links.length - 1];
    if (document.activeElement !== edge) return;
    const row = event.shiftKey ? first - 1 : last + 1;
    if (row < 0 || row >= rows.length) return;
    event.preventDefault();
    pendingFocus.current = { row, last: event.shiftKey };
    virtualizer.scrollToIndex(row, { align: event.shiftKey ? 'start' : 'end' });
  };

  const padTop = virtual && windowed.length ? windowed[0].start - scrollMargin : 0;
  const bottom =
    virtual && windowed.length
      ? virtualizer.getTotalSize() - (windowed[windowed.length - 1].end - scrollMargin)
      : 0;
  const measure = virtual ? virtualizer.measureElement : undefined;

  return (
    <section
      ref={sectionRef}
      aria-label={label}
      data-card-count={components.length}
      onKeyDown={onKeyDown}
      className="flex min-w-0 flex-1 flex-col"
      style={{ paddingTop: padTop, paddingBottom: bottom }}
    >
      {drawn.map((rowIndex) => (
        <div
          key={rows[rowIndex][0].id}
          ref={measure}
          data-index={rowIndex}
          data-row={rowIndex}
          className="flex flex-wrap gap-3"
          style={{ paddingBottom: GAP }}
        >
          {rows[rowIndex].map((component, column) => (
            <TopologyCard
              key={component.id}
              component={component}
              width={cardWidth}
              position={{ index: rowIndex * columns + column + 1, of: components.length }}
            />
          ))}
        </div>
      ))}
    </section>
  );
}
