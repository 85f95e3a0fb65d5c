import { AuthLayout } from '../components/auth-layout';
import { FlowForm } from '../components/flow-form';
import { FlowBody, useFlowSubmit } from '../components/flow-screen';
import { useFlow } from '../lib/use-flow';

/** Spec core §8: a 400 on creating the verification flow goes to /; 410 and 403 start it again. */
export function VerificationPage() {
  const state = useFlow('verification', { createRejectedTo: '/' });
  const submit = useFlowSubmit(state);
  return (
    <AuthLayout title="Verify your account">
      <FlowBody state={state}>
        {(flow) => (
          <FlowForm
            key={`code-${state.version}`}
            aria-label="Verification"
            flow={flow}
            groups={['default', 'code']}
            busy={state.busy}
            onSubmit={submit}
          />
        )}
      </FlowBody>
    </AuthLayout>
  );
}
