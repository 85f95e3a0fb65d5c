import { parseDocument, stringify } from 'yaml';

/** The team editor's fields (settings §2.4: Name, Icon, Spec (YAML)). */
export interface TeamFormValues {
  name: string;
  icon: string;
  spec: string;
}

/** Settings §3: a team's icon defaults to 'group'. */
export const DEFAULT_TEAM_ICON = 'group';

export const EMPTY_TEAM_FORM: TeamFormValues = { name: '', icon: DEFAULT_TEAM_ICON, spec: '' };

export function teamToForm(team: { name: string; icon: string | null; spec: unknown }): TeamFormValues {
  const spec = team.spec && typeof team.spec === 'object' ? (team.spec as Record<string, unknown>) : {};
  return {
    name: team.name,
    icon: team.icon ?? DEFAULT_TEAM_ICON,
    spec: Object.keys(spec).length === 0 ? '' : stringify(spec),
  };
}

export type TeamFormResult =
  | { ok: true; value: { name: string; icon: string; spec: Record<string, unknown> } }
  | { ok: false; errors: Partial<Record<keyof TeamFormValues, string>> };

/** Name required ('Name is required'); the spec is a YAML mapping (empty is an empty spec). */
export function validateTeamForm(values: TeamFormValues): TeamFormResult {
  const errors: Partial<Record<keyof TeamFormValues, string>> = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Name is required';
  let spec: Record<string, unknown> = {};
  if (values.spec.trim()) {
    const document = parseDocument(values.spec);
    if (document.errors.length > 0)
      errors.spec = `Invalid YAML: ${document.errors[0]!.message.split('\n')[0]}`;
    else {
      const parsed: unknown = document.toJS();
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        spec = parsed as Record<string, unknown>;
      else errors.spec = 'The spec must be a YAML mapping';
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const icon = values.icon.trim() || DEFAULT_TEAM_ICON;
  return { ok: true, value: { name, icon, spec: { ...spec, icon } } };
}
