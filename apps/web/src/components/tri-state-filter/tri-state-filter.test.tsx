import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { TriState } from '../../lib/url-state/filter-encoding';
import { TriStateFilterList } from './tri-state-filter-list';
import { TriStateToggle } from './tri-state-toggle';

afterEach(cleanup);

function ToggleHarness() {
  const [value, setValue] = useState<TriState>(0);
  return <TriStateToggle label="production" value={value} onChange={setValue} />;
}

const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');

describe('TriStateToggle', () => {
  it('cycles neutral → include → neutral and neutral → exclude → neutral', () => {
    render(<ToggleHarness />);
    const group = screen.getByRole('group', { name: 'production' });
    expect(group.getAttribute('data-state')).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'Include production' }));
    expect(group.getAttribute('data-state')).toBe('1');
    expect(pressed('Include production')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Include production' }));
    expect(group.getAttribute('data-state')).toBe('0');
    fireEvent.click(screen.getByRole('button', { name: 'Exclude production' }));
    expect(group.getAttribute('data-state')).toBe('-1');
    expect(group.textContent).toContain('!production');
    fireEvent.click(screen.getByRole('button', { name: 'Include production' }));
    expect(group.getAttribute('data-state')).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Exclude production' }));
    fireEvent.click(screen.getByRole('button', { name: 'Exclude production' }));
    expect(group.getAttribute('data-state')).toBe('0');
  });
});

function Search() {
  return <output aria-label="query">{decodeURIComponent(useLocation().search)}</output>;
}

describe('TriStateFilterList', () => {
  it('encodes choices in the <filter>.filter URL parameter', () => {
    render(
      <MemoryRouter initialEntries={['/catalog?pageIndex=2']}>
        <TriStateFilterList
          filter="type"
          title="Type"
          options={[{ value: 'Kubernetes::Pod', count: 4 }, { value: 'AWS::EC2' }, { value: 'a,b' }]}
        />
        <Search />
      </MemoryRouter>,
    );
    const query = () => screen.getByRole('status', { name: 'query' }).textContent;
    fireEvent.click(screen.getByRole('button', { name: 'Include Kubernetes::Pod' }));
    expect(query()).toBe('?type.filter=Kubernetes________Pod:1');
    fireEvent.click(screen.getByRole('button', { name: 'Exclude a,b' }));
    expect(query()).toBe('?type.filter=Kubernetes________Pod:1,a||||b:-1');
    expect(screen.getByRole('group', { name: 'a,b' }).textContent).toContain('!a,b');
    fireEvent.click(screen.getByRole('button', { name: 'Include Kubernetes::Pod' }));
    expect(query()).toBe('?type.filter=a||||b:-1');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(query()).toBe('');
  });

  it('reads the initial state from the URL', () => {
    render(
      <MemoryRouter initialEntries={['/?health.filter=unhealthy:1,unknown:-1']}>
        <TriStateFilterList
          filter="health"
          title="Health"
          options={[{ value: 'healthy' }, { value: 'unhealthy' }, { value: 'unknown' }]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('group', { name: 'healthy' }).getAttribute('data-state')).toBe('0');
    expect(screen.getByRole('group', { name: 'unhealthy' }).getAttribute('data-state')).toBe('1');
    expect(screen.getByRole('group', { name: 'unknown' }).getAttribute('data-state')).toBe('-1');
  });
});
