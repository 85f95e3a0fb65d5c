import { describe, expect, it } from 'vitest';
import { EMPTY_LINK_FORM, evidenceFor, validateIncidentLink } from './incident-link-form';
import { incidentListSearch } from './incident-list-query';
import { EMPTY_RULE_FORM, validateIncidentRuleForm } from './incident-rule-form';
import { activeMention, insertMention, mentionCandidates, parseMentions } from './mentions';

const ID = '0b5c7a52-9a57-4c1e-8d7e-2f1f6f0b1a11';

describe('mentions', () => {
  it('splits a comment into text and mentions', () => {
    expect(parseMentions(`ask @[Ann Lee](${ID}) now`)).toEqual([
      { text: 'ask ' },
      { mention: { name: 'Ann Lee', id: ID } },
      { text: ' now' },
    ]);
    expect(parseMentions('mail me@example.com')).toEqual([{ text: 'mail me@example.com' }]);
  });

  it('finds the mention being typed and replaces it with markup', () => {
    expect(activeMention('hi @An', 6)).toEqual({ start: 3, query: 'An' });
    expect(activeMention('mail me@ex', 10)).toBeUndefined();
    const typed = activeMention('@a', 2)!;
    expect(insertMention('@a rest', typed, { id: ID, name: 'Ann [x] Lee' })).toEqual({
      text: `@[Ann x Lee](${ID})  rest`,
      caret: `@[Ann x Lee](${ID}) `.length,
    });
  });

  it('offers people whose name contains the query, prefix matches first', () => {
    const people = [{ name: 'Bob Ann' }, { name: 'Ann Lee' }, { name: 'Carl' }];
    expect(mentionCandidates(people, 'ann').map((p) => p.name)).toEqual(['Ann Lee', 'Bob Ann']);
  });
});

describe('validateIncidentLink', () => {
  const check = { kind: 'check', checkId: 'c1', name: 'api' } as const;
  it('gives the spec messages for what is missing', () => {
    expect(validateIncidentLink(EMPTY_LINK_FORM, check)).toEqual({
      ok: false,
      errors: { incident: 'Must select or create an incident' },
    });
    expect(
      validateIncidentLink(
        { ...EMPTY_LINK_FORM, creatingIncident: true, newIncidentTitle: 'x', severity: 'huge', type: '' },
        check,
      ),
    ).toEqual({
      ok: false,
      errors: { severity: 'Please select incident severity', type: 'Please select an incident type' },
    });
    expect(validateIncidentLink({ ...EMPTY_LINK_FORM, incidentId: 'i1' }, check)).toEqual({
      ok: false,
      errors: { hypothesis: 'Must select or create a hypothesis' },
    });
    expect(
      validateIncidentLink(
        { ...EMPTY_LINK_FORM, incidentId: 'i1', creatingHypothesis: true, newHypothesisTitle: ' ' },
        check,
      ),
    ).toMatchObject({ ok: false });
  });

  it('maps each target to its evidence kind and reference', () => {
    expect(evidenceFor({ kind: 'config', configId: 'k', name: 'pod' }, '')).toMatchObject({
      type: 'config',
      config_id: 'k',
      description: 'pod',
    });
    expect(evidenceFor({ kind: 'component', componentId: 'p', name: 'svc' }, 'why')).toMatchObject({
      type: 'topology',
      component_id: 'p',
      description: 'why',
    });
    expect(
      evidenceFor({ kind: 'config_change', configChangeId: 'ch', configId: 'k', name: 'diff' }, ''),
    ).toMatchObject({ type: 'config_change', config_change_id: 'ch', config_id: 'k' });
    expect(evidenceFor({ kind: 'config_analysis', configAnalysisId: 'a', name: 'cve' }, '')).toMatchObject({
      type: 'config_analysis',
      config_analysis_id: 'a',
    });
  });
});

describe('incidentListSearch filters by owner, component and time to resolve', () => {
  it('adds the filters with valid values only', () => {
    const search = incidentListSearch(
      { owner: ID, component: ID, ttr: 'gt1d' },
      { pageIndex: 0, pageSize: 50 },
    );
    expect(search.get('commander_id')).toBe(`eq.${ID}`);
    expect(search.get('component_ids')).toBe(`cs.{${ID}}`);
    expect(search.get('time_to_resolve')).toBe('gte.86400');
    const bad = incidentListSearch(
      { owner: 'x)', component: '1,2', ttr: 'soon' },
      { pageIndex: 0, pageSize: 50 },
    );
    expect(bad.has('commander_id') || bad.has('component_ids') || bad.has('time_to_resolve')).toBe(false);
  });
});

describe('validateIncidentRuleForm', () => {
  it('accepts the starting spec with a name', () => {
    const result = validateIncidentRuleForm({ ...EMPTY_RULE_FORM, name: ' api-down ' });
    expect(result).toMatchObject({ ok: true, value: { name: 'api-down', namespace: 'default', labels: {} } });
    if (result.ok) expect(result.value.spec).toMatchObject({ priority: 1, checks: [{ name: '*' }] });
  });

  it('takes a whole IncidentRule document, its metadata filling blank fields', () => {
    const result = validateIncidentRuleForm({
      name: '',
      namespace: '',
      labels: '{}',
      spec: 'apiVersion: mission-control.flanksource.com/v1\nkind: IncidentRule\nmetadata:\n  name: db\n  namespace: prod\n  labels: {team: data}\nspec:\n  priority: 2\n',
    });
    expect(result).toEqual({
      ok: true,
      value: { name: 'db', namespace: 'prod', labels: { team: 'data' }, spec: { priority: 2 } },
    });
  });

  it('reports a missing name, bad labels and bad specs', () => {
    expect(validateIncidentRuleForm({ name: '', namespace: 'default', labels: '[1]', spec: 'a: [' })).toEqual(
      {
        ok: false,
        errors: {
          name: 'Name is required',
          labels: 'Labels must be a JSON object of strings',
          spec: expect.stringMatching(/^Invalid YAML/) as unknown as string,
        },
      },
    );
    const spec = (text: string) => validateIncidentRuleForm({ ...EMPTY_RULE_FORM, name: 'r', spec: text });
    expect(spec('priority: -1')).toMatchObject({
      errors: { spec: 'priority must be a non-negative integer' },
    });
    expect(spec('breakOnMatch: yes please')).toMatchObject({
      errors: { spec: 'breakOnMatch must be true or false' },
    });
    expect(spec('autoResolve: 10m')).toMatchObject({ errors: { spec: 'autoResolve must be an object' } });
    expect(spec('- a')).toMatchObject({ errors: { spec: 'The spec must be a YAML mapping' } });
    expect(spec('kind: Canary\nspec: {}')).toMatchObject({
      errors: { spec: 'Expected kind IncidentRule, got Canary' },
    });
  });
});
