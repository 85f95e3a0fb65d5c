/**
 * @mentions in comments: `@[Name](person id)` in the stored text (the server keeps the ids in
 * comments.mentions and puts them on the responder.commented event).
 */
const MENTION =
  /@\[([^\]\n]{1,200})\]\(([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\)/g;

export type CommentPart = { text: string } | { mention: { name: string; id: string } };

/** Splits a comment into text and mentions, in order. */
export function parseMentions(comment: string): CommentPart[] {
  const parts: CommentPart[] = [];
  let last = 0;
  for (const match of comment.matchAll(MENTION)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ text: comment.slice(last, start) });
    parts.push({ mention: { name: match[1]!, id: match[2]!.toLowerCase() } });
    last = start + match[0].length;
  }
  if (last < comment.length) parts.push({ text: comment.slice(last) });
  return parts;
}

/** The markup of one mention; brackets in a name would end it early, so they are dropped. */
export function mentionMarkup(person: { id: string; name: string }): string {
  return `@[${person.name.replace(/[[\]\n]/g, '')}](${person.id})`;
}

/**
 * The mention being typed at the caret: an '@' at the start or after a space, followed by up to
 * 30 characters without another '@' or a line break. Undefined when there is none.
 */
export function activeMention(text: string, caret: number): { start: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^@\n[\]]{0,30})$/.exec(before);
  if (!match) return undefined;
  const start = caret - match[2]!.length - 1;
  return { start, query: match[2]! };
}

/** Replaces the mention being typed with the person's markup and a space; returns text and caret. */
export function insertMention(
  text: string,
  mention: { start: number; query: string },
  person: { id: string; name: string },
): { text: string; caret: number } {
  const markup = `${mentionMarkup(person)} `;
  const end = mention.start + 1 + mention.query.length;
  return {
    text: text.slice(0, mention.start) + markup + text.slice(end),
    caret: mention.start + markup.length,
  };
}

/** People whose name contains the query (case-insensitive), names starting with it first. */
export function mentionCandidates<T extends { name: string }>(
  people: readonly T[],
  query: string,
  limit = 8,
): T[] {
  const q = query.trim().toLowerCase();
  const matches = people.filter((person) => person.name.toLowerCase().includes(q));
  const starts = (person: T) => (person.name.toLowerCase().startsWith(q) ? 0 : 1);
  return [...matches].sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name)).slice(0, limit);
}
