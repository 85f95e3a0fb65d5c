import type { HypothesisType } from '@opsdeck/contracts';

export interface HypothesisLike {
  id: string;
  parent_id: string | null;
  type: HypothesisType;
  created_at: string;
}

export type HypothesisNode<T extends HypothesisLike> = T & { children: HypothesisNode<T>[] };

/** Spec core §4: root, then factor, then solution; a solution has no children. */
export function childTypeOf(type: HypothesisType): HypothesisType | undefined {
  if (type === 'root') return 'factor';
  if (type === 'factor') return 'solution';
  return undefined;
}

/**
 * Nests the flat rows of one incident by parent_id, oldest first at each level. A row whose
 * parent is missing (deleted meanwhile) is shown at the top rather than dropped.
 */
export function buildHypothesisTree<T extends HypothesisLike>(rows: readonly T[]): HypothesisNode<T>[] {
  const nodes = new Map<string, HypothesisNode<T>>();
  for (const row of rows) nodes.set(row.id, { ...row, children: [] });
  const roots: HypothesisNode<T>[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_id ? nodes.get(node.parent_id) : undefined;
    if (parent && parent.id !== node.id) parent.children.push(node);
    else roots.push(node);
  }
  const byAge = (a: HypothesisNode<T>, b: HypothesisNode<T>) => a.created_at.localeCompare(b.created_at);
  const sortDeep = (list: HypothesisNode<T>[]) => {
    list.sort(byAge);
    for (const node of list) sortDeep(node.children);
  };
  sortDeep(roots);
  return roots;
}
