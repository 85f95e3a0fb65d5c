import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';

// Days and hours of the absolute range are wall-clock times in the browser's zone (the default
// Timezone preference): pin it so the expected instants are known.
test.use({ timezoneId: 'UTC' });

const RANGE_PARAMS = ['rangeType', 'display', 'from', 'to', 'range', 'timeRange'] as const;

/** The time-range parameters of the page's URL (settings §2.10); absent ones are left out. */
function rangeParams(page: Page): Record<string, string> {
  const search = new URL(page.url()).searchParams;
  const result: Record<string, string> = {};
  for (const name of RANGE_PARAMS) {
    const value = search.get(name);
    if (value !== null) result[name] = value;
  }
  return result;
}

const pickerButton = (page: Page) => page.getByRole('button', { name: /^Time range: / });

async function openPicker(page: Page) {
  await pickerButton(page).click();
  await expect(page.getByRole('region', { name: 'Absolute time range' })).toBeVisible();
}

async function expectRange(page: Page, label: string, params: Record<string, string>) {
  await expect(pickerButton(page)).toHaveAccessibleName(`Time range: ${label}`);
  await expect.poll(() => rangeParams(page)).toEqual(params);
}

/** A day of the current month as the calendar names it and as YYYY-MM-DD. */
function dayOfThisMonth(day: number) {
  const now = new Date();
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), day));
  const month = date.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return {
    name: `${month} ${day}, ${date.getUTCFullYear()}`,
    iso: date.toISOString().slice(0, 10),
  };
}

test('relative presets and mapped quick ranges round-trip through the URL and survive a reload', async ({
  page,
}) => {
  // Four reloads of the jobs page: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  // A stale timeRange parameter is replaced by whatever range is picked.
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs?timeRange=1h');
  await expect(page.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible();
  // The jobs page's own default (settings §9): the last 2 days, not written to the URL.
  await expectRange(page, 'Last 2 days', { timeRange: '1h' });

  // A relative preset.
  await openPicker(page);
  await page
    .getByRole('region', { name: 'Relative time ranges' })
    .getByRole('button', { name: 'Last 15 minutes', exact: true })
    .click();
  const relative = { rangeType: 'relative', display: 'Last 15 minutes', range: '15m' };
  await expectRange(page, 'Last 15 minutes', relative);
  await page.reload();
  await expectRange(page, 'Last 15 minutes', relative);
  await openPicker(page);
  await expect(page.getByRole('button', { name: 'Last 15 minutes', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // A mapped quick range.
  await page
    .getByRole('region', { name: 'Quick ranges' })
    .getByRole('button', { name: 'Yesterday', exact: true })
    .click();
  const mapped = { rangeType: 'mapped', display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' };
  await expectRange(page, 'Yesterday', mapped);
  await page.reload();
  await expectRange(page, 'Yesterday', mapped);

  // Clear removes the range from the URL; the page falls back to its default.
  await openPicker(page);
  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  await expectRange(page, 'Last 2 days', {});
  await page.reload();
  await expectRange(page, 'Last 2 days', {});
});

test('absolute ranges from the calendar round-trip through the URL and fill the recent list', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs');
  await expect(page.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible();

  // An absolute range from the calendar: Submit waits for both ends.
  await openPicker(page);
  const absolute = page.getByRole('region', { name: 'Absolute time range' });
  const submit = absolute.getByRole('button', { name: 'Submit', exact: true });
  await expect(submit).toBeDisabled();
  const tenth = dayOfThisMonth(10);
  const twelfth = dayOfThisMonth(12);
  await absolute.getByRole('button', { name: tenth.name, exact: true }).click();
  await expect(absolute.getByLabel('From')).toHaveValue(`${tenth.iso}T00:00`);
  await expect(absolute.getByLabel('To')).toHaveValue('');
  await expect(submit).toBeDisabled();
  await absolute.getByRole('button', { name: twelfth.name, exact: true }).click();
  await expect(absolute.getByLabel('To')).toHaveValue(`${twelfth.iso}T23:59`);
  await expect(submit).toBeEnabled();
  await submit.click();
  const firstLabel = `${tenth.iso} 00:00 to ${twelfth.iso} 23:59`;
  const first = {
    rangeType: 'absolute',
    from: `${tenth.iso}T00:00:00.000Z`,
    to: `${twelfth.iso}T23:59:00.000Z`,
  };
  await expectRange(page, firstLabel, first);
  await page.reload();
  await expectRange(page, firstLabel, first);

  // The picker opens on the range in the URL; a second range typed into the inputs.
  await openPicker(page);
  await expect(absolute.getByLabel('From')).toHaveValue(`${tenth.iso}T00:00`);
  await absolute.getByLabel('From').fill(`${tenth.iso}T08:30`);
  await absolute.getByLabel('To').fill(`${tenth.iso}T09:45`);
  await submit.click();
  const secondLabel = `${tenth.iso} 08:30 to ${tenth.iso} 09:45`;
  await expectRange(page, secondLabel, {
    rangeType: 'absolute',
    from: `${tenth.iso}T08:30:00.000Z`,
    to: `${tenth.iso}T09:45:00.000Z`,
  });

  // The first range again: the recent list keeps each range once, newest first, over a reload.
  await openPicker(page);
  await absolute.getByLabel('From').fill(`${tenth.iso}T00:00`);
  await absolute.getByLabel('To').fill(`${twelfth.iso}T23:59`);
  await submit.click();
  await expectRange(page, firstLabel, first);
  await page.reload();
  await openPicker(page);
  const recent = page.getByRole('list', { name: 'Recent time ranges' }).getByRole('button');
  await expect(recent).toHaveText([firstLabel, secondLabel]);
  await recent.nth(1).click();
  await expectRange(page, secondLabel, {
    rangeType: 'absolute',
    from: `${tenth.iso}T08:30:00.000Z`,
    to: `${tenth.iso}T09:45:00.000Z`,
  });
});

test('an invalid relative range in the URL is logged and the page still shows', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/jobs?rangeType=relative&range=soon');
  await expect(page.getByRole('heading', { name: 'Jobs History', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Jobs History' })).toBeVisible();
  await expect.poll(() => errors.some((text) => text.includes('Invalid relative time range'))).toBe(true);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
});
