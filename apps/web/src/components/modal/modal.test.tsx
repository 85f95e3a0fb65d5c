import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Modal, type ModalProps } from './modal';

function Harness(props: Partial<ModalProps> & { onClosed?: () => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>page behind</p>
      <Modal
        title="Check details"
        {...props}
        open={open}
        onClose={() => {
          props.onClosed?.();
          setOpen(false);
        }}
      >
        <p>body text</p>
      </Modal>
    </>
  );
}

afterEach(cleanup);

describe('Modal', () => {
  it('opens as a named dialog with medium size by default', async () => {
    render(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Check details' });
    expect(dialog.textContent).toContain('body text');
    expect(
      dialog.querySelector('[data-size]')?.getAttribute('data-size') ?? dialog.getAttribute('data-size'),
    ).toBe('medium');
  });

  it('enlarges to full size and restores', async () => {
    render(<Harness size="small" />);
    const dialog = await screen.findByRole('dialog');
    const panel = () => dialog.querySelector('[data-size]') ?? dialog;
    expect(panel().getAttribute('data-size')).toBe('small');
    fireEvent.click(screen.getByRole('button', { name: 'Enlarge' }));
    expect(panel().getAttribute('data-size')).toBe('full');
    fireEvent.click(screen.getByRole('button', { name: 'Restore size' }));
    expect(panel().getAttribute('data-size')).toBe('small');
  });

  it('opens at its own size again after its owner closed it enlarged', async () => {
    const modal = (open: boolean) => (
      <Modal open={open} onClose={() => {}} title="Spec" size="large">
        body
      </Modal>
    );
    const { rerender } = render(modal(true));
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Enlarge' }));
    rerender(modal(false));
    // Headless UI finishes closing (and later mounts a reopened portal) on later ticks.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('dialog')).toBeNull();
    rerender(modal(true));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const dialog = await screen.findByRole('dialog');
    expect((dialog.querySelector('[data-size]') ?? dialog).getAttribute('data-size')).toBe('large');
  });

  it('closes with the close button', async () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} />);
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on a background click when allowed', async () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} />);
    await screen.findByRole('dialog');
    clickOutside();
    expect(onClosed).toHaveBeenCalledTimes(1);
  });

  it('ignores a background click when not allowed, but still closes on Escape', async () => {
    const onClosed = vi.fn();
    render(<Harness onClosed={onClosed} allowBackgroundClose={false} />);
    const dialog = await screen.findByRole('dialog');
    clickOutside();
    expect(onClosed).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBe(dialog);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Close' }), { key: 'Escape' });
    expect(onClosed).toHaveBeenCalledTimes(1);
  });
});

function clickOutside() {
  const outside = document.body;
  fireEvent.pointerDown(outside);
  fireEvent.mouseDown(outside);
  fireEvent.pointerUp(outside);
  fireEvent.mouseUp(outside);
  fireEvent.click(outside);
}
