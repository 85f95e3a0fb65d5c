import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InviteUserDialog } from './invite-user-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LINK = 'http://opsdeck.test/api/auth/self-service/recovery/link?token=abc';

/** The server's answer to POST /api/auth/invite_user (emailed or not); every call is recorded. */
function answerInvite(emailed: boolean) {
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify({ link: LINK, emailed }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function invite() {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <InviteUserDialog open onClose={onClose} />
    </QueryClientProvider>,
  );
  fireEvent.change(screen.getByLabelText('First Name'), { target: { value: 'Grace' } });
  fireEvent.change(screen.getByLabelText('Last Name'), { target: { value: 'Hopper' } });
  fireEvent.change(screen.getByLabelText(/^Email/), { target: { value: 'grace@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: 'Invite' }));
  return onClose;
}

describe('InviteUserDialog', () => {
  it('without an email server hands the one-time link to the admin', async () => {
    const fetch = answerInvite(false);
    const onClose = invite();
    const link = await screen.findByLabelText('Invitation link');
    expect((link as HTMLInputElement).value).toBe(LINK);
    expect(screen.getByText(/No email server is configured, so no email was sent\./).textContent).toContain(
      'Give this link to grace@example.com',
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/invite_user');
    expect(JSON.parse(init.body as string)).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      role: 'viewer',
    });
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('with an email server closes and never shows the link', async () => {
    answerInvite(true);
    const onClose = invite();
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByLabelText('Invitation link')).toBeNull();
  });
});
