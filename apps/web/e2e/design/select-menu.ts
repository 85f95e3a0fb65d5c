import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Picks an option of a SelectMenu (the styled listbox select that replaced native selects): opens
 * it by its accessible name and clicks the option. `scope` narrows the search (a dialog).
 */
export async function chooseOption(
  scope: Page | Locator,
  name: string | RegExp,
  option: string | RegExp,
): Promise<void> {
  await selectMenu(scope, name).click();
  const page = 'page' in scope ? scope.page() : scope;
  await page
    .getByRole('listbox')
    .getByRole('option', { name: option, exact: typeof option === 'string' })
    .click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

/** The text a SelectMenu shows for its chosen option. */
export function selectMenu(scope: Page | Locator, name: string | RegExp): Locator {
  // Only listbox buttons: a table's sort button may carry the same name.
  return scope
    .getByRole('button', { name, exact: typeof name === 'string' })
    .and(scope.locator('[aria-haspopup="listbox"]'));
}
