import { describe, expect, it } from 'vitest';
import { layoutRelationshipGraph } from './relationship-graph';

const row = (id: string, related: string[] = []) => ({ id, name: id, type: 'T', related_ids: related });

describe('layoutRelationshipGraph', () => {
  it('puts incoming items left of the root and outgoing ones right, by hops', () => {
    const layout = layoutRelationshipGraph('root', [
      row('parent', ['root']),
      row('grandparent', ['parent']),
      row('root', ['child']),
      row('child', ['grandchild', 'missing']),
      row('grandchild'),
    ]);
    const layers = Object.fromEntries(layout.nodes.map((node) => [node.item.id, node.layer]));
    expect(layers).toEqual({ grandparent: -2, parent: -1, root: 0, child: 1, grandchild: 2 });
    const x = Object.fromEntries(layout.nodes.map((node) => [node.item.id, node.x]));
    expect(x.grandparent).toBeLessThan(x.parent);
    expect(x.parent).toBeLessThan(x.root);
    expect(x.root).toBeLessThan(x.child);
    // Edges only between rows present.
    expect(layout.edges).toEqual([
      { from: 'parent', to: 'root' },
      { from: 'grandparent', to: 'parent' },
      { from: 'root', to: 'child' },
      { from: 'child', to: 'grandchild' },
    ]);
    expect(layout.width).toBeGreaterThan(0);
  });

  it('stacks items of one layer and centres shorter columns', () => {
    const layout = layoutRelationshipGraph('root', [row('root', ['b', 'a']), row('a'), row('b')]);
    const [a, b] = ['a', 'b'].map((id) => layout.nodes.find((node) => node.item.id === id)!);
    expect(a.y).toBeLessThan(b.y);
    const root = layout.nodes.find((node) => node.item.id === 'root')!;
    expect(root.y).toBeGreaterThan(a.y);
    expect(root.y).toBeLessThan(b.y);
  });
});
