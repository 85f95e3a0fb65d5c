/** A run of selected lines of the spec view, 1-based and inclusive. */
export interface LineRange {
  start: number;
  end: number;
}

/** `12` or `12-20` (either order) from the URL; anything else is no selection. */
export function parseLineRange(raw: string | null | undefined): LineRange | undefined {
  const match = /^(\d+)(?:-(\d+))?$/.exec(raw ?? '');
  if (!match) return undefined;
  const first = Number.parseInt(match[1]!, 10);
  const second = match[2] === undefined ? first : Number.parseInt(match[2], 10);
  if (first < 1 || second < 1) return undefined;
  return { start: Math.min(first, second), end: Math.max(first, second) };
}

export function formatLineRange(range: LineRange): string {
  return range.start === range.end ? String(range.start) : `${range.start}-${range.end}`;
}

/** The range within a document of `lineCount` lines, or undefined when it lies outside it. */
export function clampLineRange(range: LineRange | undefined, lineCount: number): LineRange | undefined {
  if (!range || range.start > lineCount) return undefined;
  return { start: range.start, end: Math.min(range.end, lineCount) };
}

/**
 * A click on a line number: alone it selects that line (or clears it when it was the only one
 * selected); with shift it extends from the current selection's first line to the clicked one.
 */
export function selectLine(
  current: LineRange | undefined,
  line: number,
  extend: boolean,
): LineRange | undefined {
  if (extend && current) {
    const anchor = current.start;
    return { start: Math.min(anchor, line), end: Math.max(anchor, line) };
  }
  if (current && current.start === line && current.end === line) return undefined;
  return { start: line, end: line };
}

export function isLineSelected(range: LineRange | undefined, line: number): boolean {
  return range !== undefined && line >= range.start && line <= range.end;
}
