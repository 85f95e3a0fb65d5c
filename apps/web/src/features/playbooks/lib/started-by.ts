/** What started a run, as its header says it. */
export function startedByText(startedBy: { type: string; detail: string | null }): string {
  const detail = startedBy.detail ? ` ${startedBy.detail}` : '';
  switch (startedBy.type) {
    case 'person':
      return `by${detail || ' a person'}`;
    case 'event':
      return `by event${detail}`;
    case 'webhook':
      return `by webhook${detail}`;
    case 'schedule':
      return `by schedule${detail}`;
    default:
      return `by ${startedBy.type}${detail}`;
  }
}
