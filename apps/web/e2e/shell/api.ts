import { expect, request, type APIRequestContext } from '@playwright/test';

interface Flow {
  id: string;
  csrf_token: string;
}

async function startFlow(api: APIRequestContext, type: 'login' | 'registration'): Promise<Flow> {
  const response = await api.get(`/api/auth/self-service/${type}/browser`, {
    headers: { Accept: 'application/json' },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Flow;
}

/** A request context holding a session (the login flow of the auth README, without a browser). */
export async function apiSession(
  baseURL: string,
  email: string,
  password: string,
): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const flow = await startFlow(api, 'login');
  const response = await api.post(`/api/auth/self-service/login?flow=${flow.id}`, {
    headers: { Accept: 'application/json' },
    data: { method: 'password', identifier: email, password, csrf_token: flow.csrf_token },
  });
  expect(response.status(), await response.text()).toBe(200);
  return api;
}

/** The header a cookie request that changes state must carry. */
export async function csrfHeader(api: APIRequestContext): Promise<Record<string, string>> {
  const { cookies } = await api.storageState();
  const token = cookies.find((cookie) => cookie.name === 'opsdeck_csrf')?.value;
  if (!token) throw new Error('no opsdeck_csrf cookie: not signed in');
  return { 'X-CSRF-Token': token };
}

/** Registers a person and makes them a viewer through the admin's session. */
export async function createViewer(
  baseURL: string,
  admin: APIRequestContext,
  person: { email: string; password: string; first: string; last: string },
): Promise<void> {
  const api = await request.newContext({ baseURL });
  const flow = await startFlow(api, 'registration');
  const registered = await api.post(`/api/auth/self-service/registration?flow=${flow.id}`, {
    headers: { Accept: 'application/json' },
    data: {
      method: 'password',
      traits: { email: person.email, name: { first: person.first, last: person.last } },
      password: person.password,
      csrf_token: flow.csrf_token,
    },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const whoami = (await (await api.get('/api/auth/whoami')).json()) as { payload: { user: { id: string } } };
  await api.dispose();
  const role = await admin.post(`/api/rbac/${whoami.payload.user.id}/update_role`, {
    headers: await csrfHeader(admin),
    data: { roles: ['viewer'] },
  });
  expect(role.status(), await role.text()).toBe(200);
}

export async function setProperty(admin: APIRequestContext, name: string, value: string): Promise<void> {
  const response = await admin.post('/api/db/properties', {
    headers: { ...(await csrfHeader(admin)), Prefer: 'resolution=merge-duplicates' },
    data: { name, value },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

export async function deleteProperty(admin: APIRequestContext, name: string): Promise<void> {
  const response = await admin.delete(`/api/db/properties?name=eq.${encodeURIComponent(name)}`, {
    headers: await csrfHeader(admin),
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}
