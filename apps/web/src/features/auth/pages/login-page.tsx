import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { signOut } from '../api/session-actions';
import { AuthLayout } from '../components/auth-layout';
import { FlowForm, hasGroup } from '../components/flow-form';
import { FlowBody, useFlowSubmit } from '../components/flow-screen';
import { useFlow } from '../lib/use-flow';

/** Spec core §2 titles of /login. */
export const LOGIN_TITLES = {
  signIn: 'Sign In to your account',
  refresh: 'Confirm Action',
  aal2: 'Two-Factor Authentication',
} as const;

export function LoginPage() {
  const [params] = useSearchParams();
  // username and password in the address sign in at once; read them before the address is rewritten
  const credentials = useRef({ username: params.get('username'), password: params.get('password') });
  const autoSubmitted = useRef(false);
  const state = useFlow('login', {
    query: (current) => ({
      return_to: current.get('return_to') || '/',
      ...(current.get('refresh') === 'true' ? { refresh: true } : {}),
      ...(current.get('aal') ? { aal: current.get('aal') ?? undefined } : {}),
    }),
  });
  const submit = useFlowSubmit(state);
  const { flow } = state;

  useEffect(() => {
    const { username, password } = credentials.current;
    if (!flow || autoSubmitted.current || !username || !password) return;
    if (!flow.ui.nodes.some((node) => node.name === 'password')) return;
    autoSubmitted.current = true;
    void state.submit({ method: 'password', identifier: username, password });
  }, [flow, state]);

  const aal2 = flow ? flow.requested_aal === 'aal2' : params.get('aal') === 'aal2';
  const refresh = flow ? flow.refresh : params.get('refresh') === 'true';
  const title = aal2 ? LOGIN_TITLES.aal2 : refresh ? LOGIN_TITLES.refresh : LOGIN_TITLES.signIn;
  const returnTo = params.get('return_to');

  return (
    <AuthLayout title={title}>
      <FlowBody state={state}>
        {(current) => (
          <>
            {aal2 ? (
              <>
                <FlowForm
                  key={`totp-${state.version}`}
                  aria-label="Authenticator app sign-in"
                  flow={current}
                  groups={['totp']}
                  busy={state.busy}
                  onSubmit={submit}
                />
                <FlowForm
                  key={`lookup-${state.version}`}
                  aria-label="Backup code sign-in"
                  flow={current}
                  groups={['lookup_secret']}
                  busy={state.busy}
                  onSubmit={submit}
                />
                <FlowForm
                  key={`webauthn-${state.version}`}
                  aria-label="Security key sign-in"
                  flow={current}
                  groups={['webauthn']}
                  busy={state.busy}
                  onSubmit={submit}
                />
              </>
            ) : (
              <>
                <FlowForm
                  key={`password-${state.version}`}
                  aria-label="Password sign-in"
                  flow={current}
                  groups={['default', 'password']}
                  busy={state.busy}
                  onSubmit={submit}
                />
                {hasGroup(current, 'oidc') && (
                  <FlowForm
                    key={`oidc-${state.version}`}
                    aria-label="Social sign-in"
                    flow={current}
                    groups={['oidc']}
                    busy={state.busy}
                    onSubmit={submit}
                  />
                )}
                {hasGroup(current, 'passkey') && (
                  <FlowForm
                    key={`passkey-${state.version}`}
                    aria-label="Passkey sign-in"
                    flow={current}
                    groups={['passkey']}
                    busy={state.busy}
                    onSubmit={submit}
                  />
                )}
              </>
            )}
          </>
        )}
      </FlowBody>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        {aal2 || refresh ? (
          <button
            type="button"
            className="font-medium text-blue-600 hover:underline"
            onClick={() => void signOut('/')}
          >
            Sign out
          </button>
        ) : (
          <>
            <Link to="/recovery" className="font-medium text-blue-600 hover:underline">
              Reset password
            </Link>
            <Link
              to={returnTo ? `/registration?return_to=${encodeURIComponent(returnTo)}` : '/registration'}
              className="font-medium text-blue-600 hover:underline"
            >
              Create account
            </Link>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
