/** A node of the walked relationship graph (a row of `rpc/related_configs_recursive`). */
export interface GraphInput {
  id: string;
  name: string | null;
  type: string | null;
  related_ids: string[] | null;
}

export interface GraphNode<T extends GraphInput> {
  item: T;
  /** Hops from the root: negative for items pointing (incoming) to it, positive for outgoing. */
  layer: number;
  x: number;
  y: number;
}

export interface GraphEdge {
  from: string;
  to: string;
}

export interface GraphLayout<T extends GraphInput> {
  nodes: GraphNode<T>[];
  edges: GraphEdge[];
  width: number;
  height: number;
}

export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 44;
const COLUMN_GAP = 72;
const ROW_GAP = 14;

function distances(start: string, next: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const seen = new Map<string, number>([[start, 0]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const neighbour of next.get(current) ?? []) {
      if (seen.has(neighbour)) continue;
      seen.set(neighbour, seen.get(current)! + 1);
      queue.push(neighbour);
    }
  }
  return seen;
}

/**
 * Lays the graph out in columns by hops from the root: items that point to it (incoming) on the
 * left, items it points to (outgoing) on the right, the root in the middle. Edges are the
 * related_ids of each row, limited to the rows present.
 */
export function layoutRelationshipGraph<T extends GraphInput>(
  rootId: string,
  rows: readonly T[],
): GraphLayout<T> {
  const present = new Set(rows.map((row) => row.id));
  const edges: GraphEdge[] = [];
  const outgoing = new Map<string, string[]>();
  const incoming = new Map<string, string[]>();
  for (const row of rows) {
    for (const target of row.related_ids ?? []) {
      if (!present.has(target) || target === row.id) continue;
      edges.push({ from: row.id, to: target });
      outgoing.set(row.id, [...(outgoing.get(row.id) ?? []), target]);
      incoming.set(target, [...(incoming.get(target) ?? []), row.id]);
    }
  }
  const down = distances(rootId, outgoing);
  const up = distances(rootId, incoming);
  const layerOf = (id: string): number => {
    const forward = down.get(id);
    const backward = up.get(id);
    if (forward !== undefined && (backward === undefined || forward <= backward)) return forward;
    if (backward !== undefined) return -backward;
    return 1;
  };
  const columns = new Map<number, T[]>();
  for (const row of rows) {
    const layer = layerOf(row.id);
    columns.set(layer, [...(columns.get(layer) ?? []), row]);
  }
  const layers = [...columns.keys()].sort((a, b) => a - b);
  const tallest = Math.max(1, ...[...columns.values()].map((column) => column.length));
  const height = tallest * NODE_HEIGHT + (tallest - 1) * ROW_GAP;
  const nodes: GraphNode<T>[] = [];
  layers.forEach((layer, columnIndex) => {
    const column = columns
      .get(layer)!
      .sort(
        (a, b) =>
          (a.type ?? '').localeCompare(b.type ?? '') || (a.name ?? a.id).localeCompare(b.name ?? b.id),
      );
    const columnHeight = column.length * NODE_HEIGHT + (column.length - 1) * ROW_GAP;
    const top = (height - columnHeight) / 2;
    column.forEach((item, rowIndex) =>
      nodes.push({
        item,
        layer,
        x: columnIndex * (NODE_WIDTH + COLUMN_GAP),
        y: top + rowIndex * (NODE_HEIGHT + ROW_GAP),
      }),
    );
  });
  const width = layers.length * NODE_WIDTH + Math.max(0, layers.length - 1) * COLUMN_GAP;
  return { nodes, edges, width, height };
}
