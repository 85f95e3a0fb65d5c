import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '../components/auth-layout';
import { FlowForm, hasGroup } from '../components/flow-form';
import { FlowBody, useFlowSubmit } from '../components/flow-screen';
import { useFlow } from '../lib/use-flow';

export function RegistrationPage() {
  const [params] = useSearchParams();
  const state = useFlow('registration');
  const submit = useFlowSubmit(state);
  const returnTo = params.get('return_to');
  return (
    <AuthLayout title="Create account">
      <FlowBody state={state}>
        {(flow) => (
          <>
            <FlowForm
              key={`password-${state.version}`}
              aria-label="Registration"
              flow={flow}
              groups={['default', 'password']}
              busy={state.busy}
              onSubmit={submit}
            />
            {hasGroup(flow, 'oidc') && (
              <FlowForm
                key={`oidc-${state.version}`}
                aria-label="Social sign up"
                flow={flow}
                groups={['oidc']}
                busy={state.busy}
                onSubmit={submit}
              />
            )}
          </>
        )}
      </FlowBody>
      <p className="text-sm text-gray-600">
        Already have an account?{' '}
        <Link
          to={returnTo ? `/login?return_to=${encodeURIComponent(returnTo)}` : '/login'}
          className="font-medium text-blue-600 hover:underline"
        >
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}
