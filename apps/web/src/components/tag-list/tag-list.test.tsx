import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sortTags } from './sort-tags';
import { TagList } from './tag-list';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('sortTags', () => {
  it('puts account, namespace and name first, then the rest by key case-insensitively', () => {
    const sorted = sortTags({
      zone: 'eu-1',
      Name: 'web',
      cluster: 'prod',
      Namespace: 'default',
      Account: '1234',
      Beta: 'x',
      alpha: 'y',
    });
    expect(sorted.map((tag) => tag.key)).toEqual([
      'Account',
      'Namespace',
      'Name',
      'alpha',
      'Beta',
      'cluster',
      'zone',
    ]);
  });

  it('accepts a list of tags', () => {
    expect(
      sortTags([
        { key: 'b', value: '1' },
        { key: 'name', value: '2' },
      ]).map((tag) => tag.key),
    ).toEqual(['name', 'b']);
    expect(sortTags(undefined)).toEqual([]);
  });
});

describe('TagList', () => {
  it('renders the chips in sorted order', () => {
    render(<TagList tags={{ region: 'eu', namespace: 'default', account: '42' }} />);
    const chips = within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('button');
    expect(chips.map((chip) => chip.getAttribute('aria-label'))).toEqual([
      'account: 42',
      'namespace: default',
      'region: eu',
    ]);
  });

  it('shows key: value with Include and Exclude actions', async () => {
    const onFilter = vi.fn();
    render(<TagList tags={{ cluster: 'prod' }} onFilter={onFilter} />);
    fireEvent.click(screen.getByRole('button', { name: 'cluster: prod' }));
    expect(await screen.findByText('cluster: prod')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Exclude' }));
    expect(onFilter).toHaveBeenCalledWith({ key: 'cluster', value: 'prod' }, 'exclude');
    fireEvent.click(screen.getByRole('button', { name: 'cluster: prod' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Include' }));
    expect(onFilter).toHaveBeenLastCalledWith({ key: 'cluster', value: 'prod' }, 'include');
  });

  it('limits the collapsed list to whole rows, at least 1, and expands when it overflows', () => {
    // jsdom does no layout: report a list taller than its visible height.
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(120);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(28);
    render(<TagList tags={{ a: '1', b: '2', c: '3' }} minVisibleRows={0} />);
    const list = screen.getByRole('list', { name: 'Tags' });
    expect(list.style.maxHeight).toBe('1.75rem');
    const toggle = screen.getByRole('button', { name: 'Show more' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(list.style.maxHeight).toBe('');
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(list.style.maxHeight).toBe('1.75rem');
  });

  it('offers no toggle when everything fits', () => {
    render(<TagList tags={{ a: '1' }} minVisibleRows={2} />);
    expect(screen.getByRole('list', { name: 'Tags' }).style.maxHeight).toBe('3.5rem');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});
