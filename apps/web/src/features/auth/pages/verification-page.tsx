import { AuthLayout } from '../components/auth-layout';
import { FlowForm } from '../components/flow-form';
import { FlowBody, useFlowSubmit } from '../components/flow-screen';
import { isAuthScreen } from '../lib/navigation';
import { useFlow } from '../lib/use-flow';

/**
 * Spec core §8: a 400 on creating the verification flow goes to /; 410 and 403 start it again.
 * Registration lands here when the new address needs verifying (`continue_with`); once the
 * address is verified, Continue leads to the flow's return_to.
 */
export function VerificationPage() {
  const state = useFlow('verification', { createRejectedTo: '/' });
  const submit = useFlowSubmit(state);
  return (
    <AuthLayout title="Verify your account">
      <FlowBody state={state}>
        {(flow) => (
          <>
            <FlowForm
              key={`code-${state.version}`}
              aria-label="Verification"
              flow={flow}
              groups={['default', 'code']}
              busy={state.busy}
              onSubmit={submit}
            />
            {flow.state === 'passed_challenge' && (
              <a
                href={flow.return_to && !isAuthScreen(flow.return_to) ? flow.return_to : '/'}
                className="self-start text-sm font-medium text-blue-600 hover:underline"
              >
                Continue
              </a>
            )}
          </>
        )}
      </FlowBody>
    </AuthLayout>
  );
}
