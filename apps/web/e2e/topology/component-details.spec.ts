import { expect as baseExpect, test } from '@playwright/test';
import { ADMIN, signIn } from '../fixtures/auth';
import { sql } from '../fixtures/database';
import { apiSession, csrfHeader } from '../shell/api';

// The machine runs several suites at once: pages here may take several seconds to load.
const expect = baseExpect.configure({ timeout: 20_000 });

// The component page's details panel (issue 23): the configs linked to the component, and their
// insights and changes, each linking to the config's catalog page.
test('the component page lists its configs, their insights and changes, linking to the catalog', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const suffix = Date.now();
  const name = `e2e-details-${suffix}`;
  const configName = `e2e-details-db-${suffix}`;
  const admin = await apiSession(baseURL!, ADMIN.email, ADMIN.password);
  const created = await admin.post('/api/db/topologies', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'return=representation' },
    data: {
      name,
      spec: { type: `E2EDetails${suffix}`, components: [{ name: 'orders-db', type: 'Database' }] },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const [{ id: topologyId }] = (await created.json()) as { id: string }[];
  const ran = await admin.post(`/api/canary/run/topology/${topologyId}`, {
    headers: await csrfHeader(admin),
  });
  expect(((await ran.json()) as { status: string }).status).toBe('SUCCESS');
  const listed = await admin.get(
    `/api/canary/api/topology?flatten=true&topology_id=${topologyId}&type=Database`,
  );
  const [component] = ((await listed.json()) as { components: { id: string; name: string }[] }).components;
  expect(component.name).toBe('orders-db');
  await sql(
    `WITH config AS (
       INSERT INTO config_items (name, type, config_class, health) VALUES ($2, 'AWS::RDS::DBInstance', 'Database', 'warning')
       RETURNING id),
     link AS (INSERT INTO config_component_relationships (component_id, config_id) SELECT $1::uuid, id FROM config),
     insight AS (
       INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, summary, last_observed)
       SELECT id, 'storage-check', 'availability', 'high', 'open', 'Storage almost full', now() FROM config)
     INSERT INTO config_changes (config_id, change_type, severity, summary)
     SELECT id, 'ParameterChanged', 'info', 'max_connections 200' FROM config`,
    [component.id, configName],
  );
  await admin.dispose();

  await signIn(page, ADMIN.email, ADMIN.password, `/topology/${component.id}`);
  await expect(page.getByRole('heading', { name: 'orders-db', level: 1 })).toBeVisible();
  const details = page.getByRole('complementary', { name: 'Details' });
  await expect(details.getByRole('link', { name: configName }).first()).toHaveAttribute(
    'href',
    /^\/catalog\/[0-9a-f-]{36}$/,
  );
  const insights = details.getByRole('list', { name: 'Insights' });
  await expect(insights).toContainText('Storage almost full');
  await expect(insights).toContainText('high');
  const changes = details.getByRole('list', { name: 'Changes' });
  await expect(changes).toContainText('max_connections 200');
  await changes.getByRole('link', { name: configName }).click();
  await expect(page).toHaveURL(/\/catalog\/[0-9a-f-]{36}$/);
});
