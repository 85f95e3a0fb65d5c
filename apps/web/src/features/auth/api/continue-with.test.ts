import { describe, expect, it } from 'vitest';
import { continueWithLocation } from './flows';

describe('continueWithLocation', () => {
  it('sends a registration that needs verifying to the verification screen with its flow and return_to', () => {
    const location = continueWithLocation(
      [{ action: 'show_verification_ui', flow: { id: 'f-1', verifiable_address: 'a@example.com' } }],
      '/settings/jobs?page=2',
    );
    expect(location).toBe('/verification?flow=f-1&return_to=%2Fsettings%2Fjobs%3Fpage%3D2');
  });

  it('leaves the redirect alone without a verification step', () => {
    expect(continueWithLocation([], '/')).toBeUndefined();
    expect(continueWithLocation(undefined, '/')).toBeUndefined();
    expect(
      continueWithLocation([{ action: 'redirect_browser_to', redirect_browser_to: '/x' }], '/'),
    ).toBeUndefined();
    expect(continueWithLocation([{ action: 'show_verification_ui', flow: {} }], '/')).toBeUndefined();
  });
});
