import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { CURRENT_USER_QUERY_KEY } from '../api/whoami';
import { AuthLayout } from '../components/auth-layout';
import { FlowForm, hasGroup } from '../components/flow-form';
import { FlowBody, useFlowSubmit } from '../components/flow-screen';
import { useFlow } from '../lib/use-flow';

/** Spec core §2: the sections of /profile-settings and the node group each one shows. */
export const SETTINGS_SECTIONS = [
  { title: 'Profile Settings', group: 'profile' },
  { title: 'Change Password', group: 'password' },
  { title: 'Manage Social Sign In', group: 'oidc' },
  { title: 'Manage 2FA Backup Recovery Codes', group: 'lookup_secret' },
  { title: 'Manage 2FA TOTP Authenticator App', group: 'totp' },
  { title: 'Manage Hardware Tokens and Biometrics', group: 'webauthn' },
] as const;

export function SettingsPage() {
  const queryClient = useQueryClient();
  const state = useFlow('settings', {
    // a saved profile changes the name the shell shows
    onFlow: (_flow, how) => {
      if (how === 'submitted') void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
    },
  });
  const submit = useFlowSubmit(state);
  return (
    <AuthLayout title="Profile Settings" wide>
      <Link to="/" className="self-start text-sm font-medium text-blue-600 hover:underline">
        Go back
      </Link>
      <FlowBody state={state}>
        {(flow) =>
          SETTINGS_SECTIONS.filter((section) => hasGroup(flow, section.group)).map((section) => (
            <section
              key={section.group}
              aria-label={section.title}
              className="flex flex-col gap-3 border-t border-gray-200 pt-4 first:border-t-0 first:pt-0"
            >
              <h2 className="text-lg font-medium text-gray-900">{section.title}</h2>
              <FlowForm
                key={`${section.group}-${state.version}`}
                flow={flow}
                groups={[section.group]}
                busy={state.busy}
                onSubmit={submit}
              />
            </section>
          ))
        }
      </FlowBody>
    </AuthLayout>
  );
}
