import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { deleteAction, ResourceEditorRoute } from './resource-editor-route';

afterEach(cleanup);

interface Thing {
  id: string;
  name: string;
}

const idle = { isPending: false, isError: false, error: null, data: undefined };

function Form({ thing }: { thing: Thing | undefined }) {
  // Local state proves the form is a fresh one per resource (keyed by id).
  const [name, setName] = useState(thing?.name ?? '');
  return <input aria-label="Name" value={name} onChange={(event) => setName(event.target.value)} />;
}

const route = (props: {
  isNew?: boolean;
  query: Parameters<typeof ResourceEditorRoute<Thing>>[0]['query'];
}) => (
  <ResourceEditorRoute<Thing> isNew={props.isNew ?? false} query={props.query} loadingLabel="Loading thing">
    {(thing) => <Form thing={thing} />}
  </ResourceEditorRoute>
);

describe('ResourceEditorRoute', () => {
  it('opens the empty form for a new resource without waiting for a query', () => {
    render(route({ isNew: true, query: { ...idle, isPending: true } }));
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('');
  });

  it('shows a skeleton while the saved resource loads', () => {
    render(route({ query: { ...idle, isPending: true } }));
    expect(screen.getByRole('status', { name: 'Loading thing' })).not.toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it("says 'No details found' for a missing row, a 404 and a 400", () => {
    const { rerender } = render(route({ query: { ...idle, data: null } }));
    expect(screen.getByText('No details found')).not.toBeNull();
    rerender(route({ query: { ...idle, isError: true, error: new ApiError(404, 'gone', undefined) } }));
    expect(screen.getByText('No details found')).not.toBeNull();
    rerender(route({ query: { ...idle, isError: true, error: new ApiError(400, 'bad id', undefined) } }));
    expect(screen.getByText('No details found')).not.toBeNull();
  });

  it('lets other failures reach the error screen', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() =>
      render(route({ query: { ...idle, isError: true, error: new ApiError(500, 'boom', undefined) } })),
    ).toThrow('boom');
    spy.mockRestore();
  });

  it('starts a fresh form when the resource changes', () => {
    const { rerender } = render(route({ query: { ...idle, data: { id: 'a', name: 'alpha' } } }));
    const input = screen.getByRole('textbox', { name: 'Name' });
    fireEvent.change(input, { target: { value: 'edited' } });
    rerender(route({ query: { ...idle, data: { id: 'a', name: 'alpha' } } }));
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('edited');
    rerender(route({ query: { ...idle, data: { id: 'b', name: 'beta' } } }));
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('beta');
  });
});

describe('deleteAction', () => {
  it("asks 'Delete {name}?', closes the dialog and leaves after a delete", () => {
    const onDeleted = vi.fn();
    const close = vi.fn();
    const action = deleteAction({
      name: 'alpha',
      description: 'It stops.',
      pending: false,
      run: (callbacks) => callbacks.onSuccess(),
      onDeleted,
      onError: vi.fn(),
    });
    expect(action.title).toBe('Delete alpha?');
    action.onConfirm(close);
    expect(close).toHaveBeenCalledOnce();
    expect(onDeleted).toHaveBeenCalledOnce();
  });

  it('closes the dialog and reports a refused delete', () => {
    const onError = vi.fn();
    const onDeleted = vi.fn();
    const close = vi.fn();
    const refused = new ApiError(409, 'owned by a file', undefined);
    const action = deleteAction({
      name: 'alpha',
      title: 'Delete rule',
      description: 'It stops.',
      pending: true,
      run: (callbacks) => callbacks.onError(refused),
      onDeleted,
      onError,
    });
    expect(action).toMatchObject({ title: 'Delete rule', isLoading: true });
    action.onConfirm(close);
    expect(close).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledWith(refused);
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
