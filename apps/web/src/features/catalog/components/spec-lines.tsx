import clsx from 'clsx';
import { useEffect, useRef, type MouseEvent } from 'react';
import { Button } from '../../../components/button/button';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import {
  clampLineRange,
  formatLineRange,
  isLineSelected,
  selectLine,
  type LineRange,
} from '../lib/line-selection';

export interface SpecLinesProps {
  /** Accessible name of the listing. */
  label: string;
  text: string;
  selection: LineRange | undefined;
  onSelectionChange(range: LineRange | undefined): void;
}

async function copyLink(): Promise<void> {
  if (!navigator.clipboard) {
    showErrorToast('Clipboard not available');
    return;
  }
  try {
    await navigator.clipboard.writeText(window.location.href);
    showSuccessToast('Link copied to clipboard');
  } catch {
    showErrorToast('Failed to copy to clipboard');
  }
}

/**
 * A read-only document with line numbers: a click on a number selects the line, shift-click
 * selects up to it; the selection is highlighted and scrolled into view when the page opens.
 */
export function SpecLines({ label, text, selection, onSelectionChange }: SpecLinesProps) {
  const lines = text.replace(/\n$/, '').split('\n');
  const selected = clampLineRange(selection, lines.length);
  const firstSelected = useRef<HTMLTableRowElement>(null);
  const scrolledFor = useRef<string>(undefined);

  // Only once per text: a link opened with a selection shows it; later clicks do not scroll.
  useEffect(() => {
    if (scrolledFor.current === text) return;
    scrolledFor.current = text;
    firstSelected.current?.scrollIntoView?.({ block: 'center' });
  }, [text]);

  const onNumberClick = (line: number) => (event: MouseEvent) => {
    onSelectionChange(selectLine(selected, line, event.shiftKey));
  };

  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-3 text-xs text-gray-600">
        <span aria-live="polite">
          {selected
            ? selected.start === selected.end
              ? `Line ${selected.start} selected`
              : `Lines ${formatLineRange(selected)} selected`
            : 'Click a line number to select it, shift-click to select a range'}
        </span>
        {selected && (
          <>
            <Button size="sm" onClick={() => void copyLink()}>
              Copy link
            </Button>
            <button
              type="button"
              onClick={() => onSelectionChange(undefined)}
              className="text-blue-700 hover:underline"
            >
              Clear selection
            </button>
          </>
        )}
      </div>
      <div className="max-h-[32rem] overflow-auto rounded-md border border-gray-300 bg-white">
        <table aria-label={label} className="w-full border-collapse font-mono text-xs">
          <tbody>
            {lines.map((content, index) => {
              const line = index + 1;
              const isSelected = isLineSelected(selected, line);
              return (
                <tr
                  key={line}
                  ref={selected?.start === line ? firstSelected : undefined}
                  aria-selected={isSelected}
                  data-line={line}
                  className={isSelected ? 'bg-yellow-100' : undefined}
                >
                  <td className="w-0 border-r border-gray-200 bg-gray-50 px-0 align-top select-none">
                    <button
                      type="button"
                      aria-label={`Line ${line}`}
                      aria-pressed={isSelected}
                      onClick={onNumberClick(line)}
                      className={clsx(
                        'block w-full px-2 text-right text-gray-400 hover:text-gray-900',
                        isSelected && 'font-semibold text-gray-900',
                      )}
                    >
                      {line}
                    </button>
                  </td>
                  <td className="px-2 whitespace-pre-wrap text-gray-900">{content || ' '}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
