import { stableStringify } from '../../platform/stable-hash.js';

/** One RFC 6902 operation; this differ emits add, remove and replace. */
export type PatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown };

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function equal(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}

/**
 * The RFC 6902 JSON Patch turning `before` into `after`. Objects are compared key by key and
 * arrays index by index (trailing elements added, or removed from the end first so that every
 * index stays valid while the patch is applied in order).
 */
export function jsonPatch(before: unknown, after: unknown, path = ''): PatchOperation[] {
  if (equal(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const operations: PatchOperation[] = [];
    for (const key of Object.keys(before).sort()) {
      const child = `${path}/${escapePointer(key)}`;
      if (after[key] === undefined) {
        if (before[key] !== undefined) operations.push({ op: 'remove', path: child });
      } else if (before[key] === undefined) {
        operations.push({ op: 'add', path: child, value: after[key] });
      } else {
        operations.push(...jsonPatch(before[key], after[key], child));
      }
    }
    for (const key of Object.keys(after).sort()) {
      if (before[key] === undefined && after[key] !== undefined) {
        operations.push({ op: 'add', path: `${path}/${escapePointer(key)}`, value: after[key] });
      }
    }
    return operations;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const operations: PatchOperation[] = [];
    const common = Math.min(before.length, after.length);
    for (let index = 0; index < common; index += 1) {
      operations.push(...jsonPatch(before[index], after[index], `${path}/${index}`));
    }
    for (let index = before.length - 1; index >= after.length; index -= 1) {
      operations.push({ op: 'remove', path: `${path}/${index}` });
    }
    for (let index = before.length; index < after.length; index += 1) {
      operations.push({ op: 'add', path: `${path}/${index}`, value: after[index] });
    }
    return operations;
  }
  return [{ op: 'replace', path, value: after }];
}

function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Applies a patch made by jsonPatch (to check it, and to rebuild a past version). */
export function applyPatch(document: unknown, operations: readonly PatchOperation[]): unknown {
  let root: unknown = structuredClone(document);
  for (const operation of operations) {
    if (operation.path === '') {
      root = operation.op === 'remove' ? null : structuredClone(operation.value);
      continue;
    }
    const tokens = operation.path.slice(1).split('/').map(unescapePointer);
    const last = tokens.pop() as string;
    let parent: unknown = root;
    for (const token of tokens) parent = (parent as Record<string, unknown>)[token];
    if (Array.isArray(parent)) {
      const index = Number(last);
      if (operation.op === 'remove') parent.splice(index, 1);
      else if (operation.op === 'add') parent.splice(index, 0, structuredClone(operation.value));
      else parent[index] = structuredClone(operation.value);
    } else if (isObject(parent)) {
      if (operation.op === 'remove') delete parent[last];
      else parent[last] = structuredClone(operation.value);
    } else {
      throw new Error(`cannot apply ${operation.op} at ${operation.path}`);
    }
  }
  return root;
}

/** Pretty JSON with sorted keys: the line form both sides of a readable diff are cut from. */
export function prettyLines(value: unknown): string[] {
  if (typeof value === 'string') return value.split('\n');
  return JSON.stringify(JSON.parse(stableStringify(value)), null, 2).split('\n');
}

type LineEdit = { kind: ' ' | '-' | '+'; text: string };

/** Line edits by longest common subsequence; falls back to replace-all on huge inputs. */
function lineEdits(a: string[], b: string[]): LineEdit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const head: LineEdit[] = a.slice(0, start).map((text) => ({ kind: ' ', text }));
  const tail: LineEdit[] = a.slice(endA).map((text) => ({ kind: ' ', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle: LineEdit[] = [];
  if (midA.length * midB.length > 4_000_000) {
    for (const text of midA) middle.push({ kind: '-', text });
    for (const text of midB) middle.push({ kind: '+', text });
  } else {
    const rows = midA.length + 1;
    const cols = midB.length + 1;
    const table = new Uint32Array(rows * cols);
    for (let i = midA.length - 1; i >= 0; i -= 1) {
      for (let j = midB.length - 1; j >= 0; j -= 1) {
        table[i * cols + j] =
          midA[i] === midB[j]
            ? table[(i + 1) * cols + j + 1] + 1
            : Math.max(table[(i + 1) * cols + j], table[i * cols + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < midA.length && j < midB.length) {
      if (midA[i] === midB[j]) {
        middle.push({ kind: ' ', text: midA[i] });
        i += 1;
        j += 1;
      } else if (table[(i + 1) * cols + j] >= table[i * cols + j + 1]) {
        middle.push({ kind: '-', text: midA[i] });
        i += 1;
      } else {
        middle.push({ kind: '+', text: midB[j] });
        j += 1;
      }
    }
    for (; i < midA.length; i += 1) middle.push({ kind: '-', text: midA[i] });
    for (; j < midB.length; j += 1) middle.push({ kind: '+', text: midB[j] });
  }
  return [...head, ...middle, ...tail];
}

/**
 * A unified diff (`--- before`, `+++ after`, `@@ -a,b +c,d @@` hunks with 3 lines of context)
 * of the pretty JSON of two values; empty when they are equal.
 */
export function unifiedDiff(before: unknown, after: unknown, context = 3): string {
  const edits = lineEdits(prettyLines(before), prettyLines(after));
  if (edits.every((edit) => edit.kind === ' ')) return '';
  const out = ['--- before', '+++ after'];
  let index = 0;
  while (index < edits.length) {
    while (index < edits.length && edits[index].kind === ' ') index += 1;
    if (index >= edits.length) break;
    const hunkStart = Math.max(0, index - context);
    let hunkEnd = index;
    // Extend while the next change is within 2×context unchanged lines.
    for (;;) {
      while (hunkEnd < edits.length && edits[hunkEnd].kind !== ' ') hunkEnd += 1;
      let gap = hunkEnd;
      while (gap < edits.length && edits[gap].kind === ' ') gap += 1;
      if (gap < edits.length && gap - hunkEnd <= 2 * context) hunkEnd = gap;
      else break;
    }
    hunkEnd = Math.min(edits.length, hunkEnd + context);
    let lineA = 1;
    let lineB = 1;
    for (let k = 0; k < hunkStart; k += 1) {
      if (edits[k].kind !== '+') lineA += 1;
      if (edits[k].kind !== '-') lineB += 1;
    }
    const slice = edits.slice(hunkStart, hunkEnd);
    const countA = slice.filter((edit) => edit.kind !== '+').length;
    const countB = slice.filter((edit) => edit.kind !== '-').length;
    out.push(`@@ -${lineA},${countA} +${lineB},${countB} @@`);
    for (const edit of slice) out.push(`${edit.kind}${edit.text}`);
    index = hunkEnd;
  }
  return `${out.join('\n')}\n`;
}

/** A one-line summary of a patch: the changed paths (dotted), at most five. */
export function patchSummary(operations: readonly PatchOperation[]): string {
  const paths = [
    ...new Set(
      operations.map((operation) =>
        operation.path
          .slice(1)
          .split('/')
          .map(unescapePointer)
          .filter((token) => !/^\d+$/.test(token))
          .join('.'),
      ),
    ),
  ];
  const shown = paths.slice(0, 5).map((path) => path || '(root)');
  return paths.length > 5 ? `${shown.join(', ')} and ${paths.length - 5} more` : shown.join(', ');
}
