import { Link } from 'react-router';
import { AuthLayout } from '../components/auth-layout';
import { FlowForm } from '../components/flow-form';
import { FlowBody, useFlowSubmit } from '../components/flow-screen';
import { useFlow } from '../lib/use-flow';

export function RecoveryPage() {
  const state = useFlow('recovery');
  const submit = useFlowSubmit(state);
  return (
    <AuthLayout title="Recover account">
      <FlowBody state={state}>
        {(flow) => (
          <FlowForm
            key={`code-${state.version}`}
            aria-label="Recovery"
            flow={flow}
            groups={['default', 'code']}
            busy={state.busy}
            onSubmit={submit}
          />
        )}
      </FlowBody>
      <Link to="/login" className="self-start text-sm font-medium text-blue-600 hover:underline">
        Go back
      </Link>
    </AuthLayout>
  );
}
