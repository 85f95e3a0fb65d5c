import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResourceEditor, SpecViewTabs, type ResourceEditorProps, type SpecView } from './resource-editor';

afterEach(cleanup);

function Location() {
  const location = useLocation();
  return <output aria-label="location">{`${location.pathname}${location.search}`}</output>;
}

function renderEditor(props: Partial<ResourceEditorProps>, url = '/things/1') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route
          path="/things/:id"
          element={
            <ResourceEditor
              list={{ label: 'Things', path: '/things' }}
              name={undefined}
              newLabel="New thing"
              tabsLabel="Thing"
              {...props}
            >
              {props.children ?? <p>the fields</p>}
            </ResourceEditor>
          }
        />
        <Route path="/things" element={<p>the list</p>} />
      </Routes>
      <Location />
    </MemoryRouter>,
  );
}

const location = () => screen.getByRole('status', { name: 'location' }).textContent;

describe('ResourceEditor', () => {
  it('creates: breadcrumb to the list, no tabs, Save only', () => {
    const onSave = vi.fn();
    renderEditor({ jobHistory: <p>jobs</p>, save: { pending: false, onSave } }, '/things/new');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Things' }).getAttribute('href')).toBe('/things');
    expect(crumbs.textContent).toContain('New thing');
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.getByRole('tabpanel', { name: 'Spec' }).textContent).toContain('the fields');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('edits: Spec and Job History tabs in the URL, Update, extra actions, Cancel back to the list', () => {
    const onSave = vi.fn();
    renderEditor({
      name: 'alpha',
      jobHistory: <p>the jobs</p>,
      save: { pending: true, onSave },
      extraActions: <button type="button">Run Now</button>,
    });
    const tabs = screen.getByRole('tablist', { name: 'Thing' });
    expect(within(tabs).getByRole('tab', { name: 'Spec' }).getAttribute('aria-selected')).toBe('true');
    const update = screen.getByRole('button', { name: 'Updating' }) as HTMLButtonElement;
    expect(update.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Run Now' })).toBeTruthy();

    fireEvent.click(within(tabs).getByRole('tab', { name: 'Job History' }));
    expect(location()).toBe('/things/1?tab=job-history');
    expect(screen.getByRole('tabpanel', { name: 'Job History' }).textContent).toBe('the jobs');
    expect(screen.queryByText('the fields')).toBeNull();
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Spec' }));
    expect(location()).toBe('/things/1');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(location()).toBe('/things');
  });

  it('opens on the tab the URL names', () => {
    renderEditor({ name: 'alpha', jobHistory: <p>the jobs</p> }, '/things/1?tab=job-history');
    expect(screen.getByRole('tabpanel', { name: 'Job History' })).toBeTruthy();
    // No save: the user may not change it.
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
  });

  it('confirms Delete and lets the caller close the dialog', async () => {
    const onConfirm = vi.fn((close: () => void) => close());
    renderEditor({
      name: 'alpha',
      remove: { title: 'Delete alpha?', description: 'Gone for good.', isLoading: false, onConfirm },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete alpha?' });
    expect(dialog.textContent).toContain('Gone for good.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('says a file-owned resource is read-only, and submits a form by id', () => {
    const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    renderEditor({
      name: 'alpha',
      managedBy: { source: 'resources/alpha.yaml', noun: 'thing' },
      save: { pending: false, form: 'thing-form' },
      children: <form id="thing-form" onSubmit={onSubmit} />,
    });
    expect(screen.getByRole('note').textContent).toBe(
      'This thing is managed by resources/alpha.yaml, so it is read-only here. Change it in that file.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});

describe('SpecViewTabs', () => {
  it('switches between Form and Code', () => {
    function Harness() {
      const [view, setView] = useState<SpecView>('form');
      return (
        <>
          <SpecViewTabs view={view} onChange={setView} />
          <output aria-label="view">{view}</output>
        </>
      );
    }
    render(<Harness />);
    const tabs = screen.getByRole('tablist', { name: 'Spec editor' });
    expect(within(tabs).getByRole('tab', { name: 'Form' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Code' }));
    expect(screen.getByRole('status', { name: 'view' }).textContent).toBe('code');
    expect(within(tabs).getByRole('tab', { name: 'Code' }).getAttribute('aria-selected')).toBe('true');
  });
});
