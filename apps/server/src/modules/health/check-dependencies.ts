import type { SyncedCheck } from './canary-sync.js';

/** A check to run, with the checks of its canary it waits for (`dependsOn`). */
export interface PlannedCheck {
  check: SyncedCheck;
  dependsOn: SyncedCheck[];
  /** Set when the check cannot run as declared (unknown name, cycle, bad field); the reason. */
  problem?: string;
}

function dependencyNames(spec: unknown): { names: string[]; problem?: string } {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return { names: [] };
  const raw = (spec as Record<string, unknown>).dependsOn;
  if (raw === undefined || raw === null) return { names: [] };
  if (typeof raw === 'string') return { names: raw.trim() === '' ? [] : [raw.trim()] };
  if (Array.isArray(raw) && raw.every((item) => typeof item === 'string')) {
    return { names: [...new Set(raw.map((item) => item.trim()).filter((item) => item !== ''))] };
  }
  return { names: [], problem: 'dependsOn: must be a list of check names' };
}

/**
 * Orders a canary's checks so every check comes after the checks it depends on (by name, within
 * the canary; a name shared by checks of several types means all of them). With a filter, the
 * accepted checks and everything they depend on run. A dependency on an unknown name, on itself or
 * in a cycle makes the check invalid with a problem naming it; checks depending on such a check
 * are planned normally (they are skipped when it fails).
 */
export function planCanaryRun(
  all: readonly SyncedCheck[],
  filter?: (check: SyncedCheck) => boolean,
): PlannedCheck[] {
  const byName = new Map<string, SyncedCheck[]>();
  for (const check of all) byName.set(check.entry.name, [...(byName.get(check.entry.name) ?? []), check]);
  const declared = new Map<string, { dependsOn: SyncedCheck[]; problem?: string }>();
  for (const check of all) {
    const { names, problem } = dependencyNames(check.entry.spec);
    const dependsOn: SyncedCheck[] = [];
    const missing: string[] = [];
    for (const name of names) {
      const found = byName.get(name);
      if (!found) missing.push(name);
      else dependsOn.push(...found);
    }
    declared.set(check.id, {
      dependsOn,
      problem:
        problem ??
        (missing.length > 0
          ? `dependsOn: no check named ${missing.map((name) => `"${name}"`).join(', ')} in canary`
          : undefined),
    });
  }

  // Depth-first, dependencies first; a check met again while on the stack closes a cycle.
  const order: PlannedCheck[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const cyclic = new Map<string, string>();
  const stack: SyncedCheck[] = [];
  const visit = (check: SyncedCheck) => {
    const seen = state.get(check.id);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const loop = stack.slice(stack.indexOf(check));
      const path = [...loop, check].map((item) => item.entry.name).join(' → ');
      for (const member of loop) if (!cyclic.has(member.id)) cyclic.set(member.id, path);
      return;
    }
    state.set(check.id, 'visiting');
    stack.push(check);
    for (const dependency of declared.get(check.id)!.dependsOn) visit(dependency);
    stack.pop();
    state.set(check.id, 'done');
    const { dependsOn, problem } = declared.get(check.id)!;
    order.push({ check, dependsOn, problem });
  };
  for (const check of all) if (!filter || filter(check)) visit(check);
  return order.map((planned) => {
    const loop = cyclic.get(planned.check.id);
    if (!loop || planned.problem) return planned;
    // A check in a cycle cannot wait for its dependencies: it does not run.
    return { ...planned, dependsOn: [], problem: `dependsOn: circular dependency ${loop}` };
  });
}
