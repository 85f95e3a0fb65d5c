/** Permission selectors (object selectors, agents, label selectors) as row filters. */
import type { RowFilter } from '../../data-api/row-filters.js';
import type { ScopeBase } from './row-scopes.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const NEVER: RowFilter = { kind: 'constant', value: false };
export const ALWAYS: RowFilter = { kind: 'constant', value: true };

/** Rows of agents given by id or by name. */
export function agentFilter(agents: readonly string[]): RowFilter {
  const ids = agents.filter((agent) => UUID.test(agent));
  const names = agents.filter((agent) => !UUID.test(agent));
  const filters: RowFilter[] = [];
  if (ids.length > 0) filters.push({ kind: 'in', column: 'agent_id', values: ids });
  if (names.length > 0) {
    filters.push({
      kind: 'exists',
      relation: 'agents',
      on: [['id', 'agent_id']],
      where: [{ kind: 'in', column: 'name', values: names }],
    });
  }
  return filters.length === 1 ? filters[0] : { kind: 'or', filters };
}

/**
 * One resource selector (id, name with `*` globs, namespace, agent, types, statuses, health,
 * labelSelector, tagSelector) as a filter on the base table; null when it uses anything else.
 */
export function selectorFilter(selector: Record<string, unknown>, base: ScopeBase): RowFilter | null {
  const filters: RowFilter[] = [];
  const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  const list = (value: unknown): string[] | null =>
    Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  for (const [key, value] of Object.entries(selector)) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0))
      continue;
    switch (key) {
      case 'id': {
        const id = text(value);
        if (!id) return null;
        filters.push(UUID.test(id) ? { kind: 'compare', column: 'id', op: 'eq', value: id } : NEVER);
        break;
      }
      case 'name':
      case 'namespace': {
        const pattern = text(value);
        if (!pattern) return null;
        filters.push(
          pattern.includes('*')
            ? {
                kind: 'like',
                column: key,
                pattern: pattern.replace(/[\\%_]/g, (m) => `\\${m}`).replace(/\*/g, '%'),
              }
            : { kind: 'compare', column: key, op: 'eq', value: pattern },
        );
        break;
      }
      case 'agent': {
        const agent = text(value);
        if (!agent) return null;
        filters.push(agentFilter([agent]));
        break;
      }
      case 'types':
      case 'statuses':
      case 'health': {
        const column = key === 'types' ? 'type' : key === 'statuses' ? 'status' : 'health';
        const values = list(value) ?? (text(value) ? [text(value)!] : null);
        if (!values || !base.columns.has(column)) return null;
        filters.push({ kind: 'in', column, values });
        break;
      }
      case 'labelSelector':
      case 'tagSelector': {
        const expression = text(value);
        const column = key === 'labelSelector' ? 'labels' : base.tagsColumn;
        const parsed = expression ? labelSelectorFilter(expression, column) : null;
        if (!parsed) return null;
        filters.push(parsed);
        break;
      }
      default:
        return null;
    }
  }
  if (filters.length === 0) return ALWAYS;
  return filters.length === 1 ? filters[0] : { kind: 'and', filters };
}

/** `app=api,env!=dev,team,!legacy` (Kubernetes equality-based selectors) on a json column. */
export function labelSelectorFilter(expression: string, column: string): RowFilter | null {
  const filters: RowFilter[] = [];
  for (const raw of expression.split(',')) {
    const term = raw.trim();
    if (term === '') continue;
    const unequal = /^([^=!\s]+)\s*!=\s*(.*)$/.exec(term);
    const equal = /^([^=!\s]+)\s*==?\s*(.*)$/.exec(term);
    if (unequal) {
      filters.push({
        kind: 'not',
        filter: { kind: 'contains', column, value: { [unequal[1]]: unequal[2].trim() } },
      });
    } else if (equal) {
      filters.push({ kind: 'contains', column, value: { [equal[1]]: equal[2].trim() } });
    } else if (/^![^=!\s()]+$/.test(term)) {
      filters.push({ kind: 'not', filter: { kind: 'hasKey', column, key: term.slice(1) } });
    } else if (/^[^=!\s()]+$/.test(term)) {
      filters.push({ kind: 'hasKey', column, key: term });
    } else {
      return null;
    }
  }
  if (filters.length === 0) return null;
  return filters.length === 1 ? filters[0] : { kind: 'and', filters };
}
