import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UiNode } from '../api/flows';
import { withWebAuthnCredential } from './webauthn';

const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

const node = (group: string, name: string, type: UiNode['type'], value?: unknown): UiNode => ({
  group,
  name,
  type,
  value,
  messages: [],
});

beforeEach(() => {
  browser.startAuthentication.mockReset();
  browser.startRegistration.mockReset();
});

describe('withWebAuthnCredential', () => {
  it('signs a passkey challenge and sends the credential as passkey_login', async () => {
    browser.startAuthentication.mockResolvedValue({ id: 'cred', type: 'public-key' });
    const nodes = [node('passkey', 'passkey_options', 'script', '{"challenge":"abc","allowCredentials":[]}')];
    const body = await withWebAuthnCredential(nodes, { method: 'passkey' });
    expect(browser.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'abc', allowCredentials: [] },
    });
    expect(body).toEqual({ method: 'passkey', passkey_login: '{"id":"cred","type":"public-key"}' });
  });

  it('registers a security key in settings as webauthn_register, keeping the display name', async () => {
    browser.startRegistration.mockResolvedValue({ id: 'new' });
    const nodes = [node('webauthn', 'webauthn_register_options', 'script', '{"challenge":"c"}')];
    const body = await withWebAuthnCredential(nodes, {
      method: 'webauthn',
      webauthn_register_displayname: 'key',
    });
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c' } });
    expect(body).toEqual({
      method: 'webauthn',
      webauthn_register_displayname: 'key',
      webauthn_register: '{"id":"new"}',
    });
  });

  it('leaves other methods alone', async () => {
    const body = await withWebAuthnCredential([node('passkey', 'passkey_options', 'script', '{}')], {
      method: 'password',
    });
    expect(body).toEqual({ method: 'password' });
    expect(browser.startAuthentication).not.toHaveBeenCalled();
  });
});
