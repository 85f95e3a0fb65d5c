import { act, fireEvent, screen, within } from '@testing-library/react';

/** The SelectMenu button a field label names (its accessible name starts with the label). */
export function selectMenuButton(container: HTMLElement, label: string): HTMLElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return within(container)
    .getAllByRole('button', { name: new RegExp(`^${escaped}\\b`) })
    .find((button) => button.getAttribute('aria-haspopup') === 'listbox')!;
}

/** The text a SelectMenu button shows (its chosen option, or its placeholder). */
export function selectMenuText(container: HTMLElement, label: string): string {
  return selectMenuButton(container, label).textContent ?? '';
}

/** Opens a SelectMenu from the keyboard and lists its options' texts, then closes it. */
export async function selectMenuOptions(container: HTMLElement, label: string): Promise<string[]> {
  const button = selectMenuButton(container, label);
  await openMenu(button);
  const texts = screen.getAllByRole('option').map((option) => option.textContent ?? '');
  fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
  await settle();
  return texts;
}

/** Picks the option named `option` of the SelectMenu labelled `label`, as a user would. */
export async function chooseMenuOption(container: HTMLElement, label: string, option: string | RegExp) {
  const button = selectMenuButton(container, label);
  await openMenu(button);
  fireEvent.click(await screen.findByRole('option', { name: option }));
  await settle();
}

async function openMenu(button: HTMLElement) {
  // jsdom has no ResizeObserver; Headless UI watches the button's size while the list is open.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  button.focus();
  fireEvent.keyDown(button, { key: 'ArrowDown' });
  await settle();
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}
