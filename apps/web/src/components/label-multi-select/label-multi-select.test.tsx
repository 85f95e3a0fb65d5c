import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LabelMultiSelect, summarizeLabels } from './label-multi-select';

afterEach(cleanup);

const OPTIONS = ['env=prod', 'env=dev', 'team=core', 'team=web', 'tier=db'].map((value) => ({ value }));

function Harness({ initial = [] as string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return <LabelMultiSelect label="Labels" options={OPTIONS} value={value} onChange={setValue} />;
}

describe('summarizeLabels', () => {
  it("names up to 3 selections and says 'including N labels' from 4", () => {
    expect(summarizeLabels([], 'All')).toBe('All');
    expect(summarizeLabels(['a', 'b', 'c'], 'All')).toBe('a, b, c');
    expect(summarizeLabels(['a', 'b', 'c', 'd'], 'All')).toBe('including 4 labels');
    expect(summarizeLabels(['a', 'b', 'c', 'd', 'e'], 'All')).toBe('including 5 labels');
  });
});

describe('LabelMultiSelect', () => {
  it('selects several labels and summarises from 4 selections', async () => {
    render(<Harness />);
    const button = screen.getByRole('button', { name: /Labels/ });
    expect(button.textContent).toBe('All');
    fireEvent.click(button);
    for (const value of ['env=prod', 'team=core', 'team=web']) {
      fireEvent.click(await screen.findByRole('option', { name: value }));
    }
    expect(screen.getByRole('button', { name: /Labels/ }).textContent).toBe('env=prod, team=core, team=web');
    fireEvent.click(screen.getByRole('option', { name: 'tier=db' }));
    expect(screen.getByRole('button', { name: /Labels/ }).textContent).toBe('including 4 labels');
    expect(screen.getByRole('option', { name: 'tier=db' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('option', { name: 'env=prod' }));
    expect(screen.getByRole('button', { name: /Labels/ }).textContent).toBe('team=core, team=web, tier=db');
  });
});
