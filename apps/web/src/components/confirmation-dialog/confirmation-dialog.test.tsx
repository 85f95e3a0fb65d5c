import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmationDialog } from './confirmation-dialog';

afterEach(cleanup);

describe('ConfirmationDialog', () => {
  it('defaults to Delete and Cancel', async () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    render(
      <ConfirmationDialog
        open
        title="Delete connection?"
        description="This cannot be undone."
        onConfirm={onConfirm}
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete connection?' });
    expect(dialog.textContent).toContain('This cannot be undone.');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Delete' }).className).toContain('bg-red-600');
  });

  it('offers an approve style with custom labels', async () => {
    render(
      <ConfirmationDialog
        open
        variant="approve"
        title="Approve run?"
        confirmLabel="Approve"
        cancelLabel="Not now"
        onConfirm={() => {}}
        onClose={() => {}}
      />,
    );
    await screen.findByRole('alertdialog');
    expect(screen.getByRole('button', { name: 'Approve' }).className).toContain('bg-green-600');
    expect(screen.getByRole('button', { name: 'Not now' })).toBeTruthy();
  });

  it('disables both buttons while loading', async () => {
    render(<ConfirmationDialog open isLoading title="Delete?" onConfirm={() => {}} onClose={() => {}} />);
    await screen.findByRole('alertdialog');
    expect((screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('renders nothing when closed', () => {
    render(<ConfirmationDialog open={false} title="Delete?" onConfirm={() => {}} onClose={() => {}} />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
