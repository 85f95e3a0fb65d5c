import {
  PERMISSION_OBJECTS,
  PERMISSION_ROLE_SUBJECTS,
  PERMISSION_SUBJECT_TABS,
  PLAYBOOK_PERMISSION_ACTIONS,
} from '@opsdeck/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { PermissionsReference } from './permissions-reference';

afterEach(cleanup);

it('the help page lists every subject, role, global object and playbook verb the server knows', () => {
  render(<PermissionsReference />);
  screen.getByRole('heading', { name: 'Permissions reference' });
  for (const tab of PERMISSION_SUBJECT_TABS)
    expect(screen.getAllByText(tab.label, { selector: 'dt' }).length).toBeGreaterThan(0);
  const codes = screen.getAllByRole('listitem').map((item) => item.textContent);
  for (const value of [...PERMISSION_ROLE_SUBJECTS, ...PERMISSION_OBJECTS, ...PLAYBOOK_PERMISSION_ACTIONS])
    expect(codes).toContain(value);
});
