export const ELLIPSIS = '...';

/** Cuts text to `maxLength` characters and appends an ellipsis when it was longer (settings §9). */
export function truncateText(text: string | null | undefined, maxLength: number): string {
  if (!text) return '';
  if (text.length <= maxLength) return text;
  return `${text.slice(0, Math.max(0, maxLength))}${ELLIPSIS}`;
}
