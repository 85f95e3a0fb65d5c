import { describe, expect, it } from 'vitest';
import { FLOW_ERROR_MESSAGES, resolveFlowError } from './flow-errors';

const context = { type: 'settings' as const, here: '/profile-settings?flow=f1' };
const error = (id: string | undefined, status: number, extra: Record<string, string> = {}) => ({
  id,
  status,
  message: 'server message',
  body: {},
  ...extra,
});

describe('resolveFlowError (spec core §8)', () => {
  it('follows the address given with session_aal2_required, else the aal2 login', () => {
    expect(
      resolveFlowError(
        error('session_aal2_required', 403, { redirectTo: '/login?aal=aal2&return_to=%2Fx' }),
        context,
      ),
    ).toEqual({
      kind: 'redirect',
      to: '/login?aal=aal2&return_to=%2Fx',
    });
    expect(resolveFlowError(error('session_aal2_required', 403), context)).toEqual({
      kind: 'redirect',
      to: '/login?aal=aal2&return_to=%2Fprofile-settings%3Fflow%3Df1',
    });
  });

  it('sends session_already_available to /', () => {
    expect(
      resolveFlowError(error('session_already_available', 400), { type: 'login', here: '/login' }),
    ).toEqual({ kind: 'redirect', to: '/' });
  });

  it('sends session_refresh_required to login with refresh', () => {
    expect(resolveFlowError(error('session_refresh_required', 403), context)).toEqual({
      kind: 'redirect',
      to: '/login?refresh=true&return_to=%2Fprofile-settings%3Fflow%3Df1',
    });
  });

  it('restarts with the spec messages for return_to, expired and CSRF errors', () => {
    expect(resolveFlowError(error('self_service_flow_return_to_forbidden', 400), context)).toEqual({
      kind: 'restart',
      message: 'The return_to address is not allowed.',
      dropReturnTo: true,
    });
    expect(
      resolveFlowError(error('self_service_flow_expired', 410, { useFlowId: 'fresh' }), context),
    ).toEqual({
      kind: 'restart',
      message: 'Your interaction expired, please fill out the form again.',
      flowId: 'fresh',
    });
    expect(resolveFlowError(error('security_csrf_violation', 403), context)).toEqual({
      kind: 'restart',
      message: 'A security violation was detected, please fill out the form again.',
    });
    expect(FLOW_ERROR_MESSAGES.csrf).toBe(
      'A security violation was detected, please fill out the form again.',
    );
  });

  it('restarts silently on identity mismatch and on any 410', () => {
    expect(resolveFlowError(error('security_identity_mismatch', 403), context)).toEqual({ kind: 'restart' });
    expect(resolveFlowError(error(undefined, 410), context)).toEqual({ kind: 'restart' });
  });

  it('follows browser_location_change_required and sends session_inactive to login', () => {
    expect(
      resolveFlowError(
        error('browser_location_change_required', 422, { redirectTo: 'https://idp.example/auth' }),
        context,
      ),
    ).toEqual({
      kind: 'redirect',
      to: 'https://idp.example/auth',
    });
    expect(resolveFlowError(error('session_inactive', 401), context)).toEqual({
      kind: 'redirect',
      to: '/login?return_to=%2Fprofile-settings%3Fflow%3Df1',
    });
  });

  it('keeps the form for throttling and network errors; anything else goes to the error page', () => {
    expect(resolveFlowError(error('self_service_flow_throttled', 429), context)).toEqual({
      kind: 'message',
      message: 'server message',
    });
    expect(resolveFlowError(error(undefined, 0), context)).toEqual({
      kind: 'message',
      message: 'server message',
    });
    expect(resolveFlowError(error('something_else', 500), context)).toEqual({ kind: 'error-page' });
  });
});
