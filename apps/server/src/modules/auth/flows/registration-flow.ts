import { withTransaction } from '../../../platform/db/pool.js';
import {
  createIdentity,
  findActivePersonByEmail,
  isEmailAddress,
  normaliseEmail,
} from '../identity-store.js';
import { startOidc } from '../oidc.js';
import {
  csrfNode,
  expireFlow,
  field,
  flowErrors,
  flowView,
  insertFlow,
  nestedField,
  node,
  REQUIRED,
  saveFlow,
  text,
  validateReturnTo,
  withFieldMessages,
  type FlowRecord,
  type FlowUi,
  type UiText,
} from './flow-core.js';
import { sessionView, signIn, type FlowCall, type FlowDeps } from './flow-context.js';
import { flowAction } from './login-flow.js';
import { passwordProblems } from './password-policy.js';
import { startVerificationForAddress } from './recovery-verification-flows.js';

interface RegistrationValues {
  email?: string;
  first?: string;
  last?: string;
}

function renderRegistration(
  deps: FlowDeps,
  flow: FlowRecord,
  extras: { messages?: UiText[]; fieldMessages?: Record<string, UiText[]>; values?: RegistrationValues } = {},
): FlowUi {
  const values = extras.values ?? {};
  const nodes = [
    csrfNode(),
    node('default', 'traits.email', 'email', {
      required: true,
      label: 'Email',
      autocomplete: 'email',
      value: values.email ?? '',
    }),
    node('default', 'traits.name.first', 'text', {
      label: 'First name',
      autocomplete: 'given-name',
      value: values.first ?? '',
    }),
    node('default', 'traits.name.last', 'text', {
      label: 'Last name',
      autocomplete: 'family-name',
      value: values.last ?? '',
    }),
    node('password', 'password', 'password', {
      required: true,
      label: 'Password',
      autocomplete: 'new-password',
    }),
    node('password', 'method', 'submit', { value: 'password', label: 'Sign up' }),
  ];
  if (deps.config.oidc) {
    nodes.push(
      node('oidc', 'provider', 'submit', {
        value: deps.config.oidc.id,
        label: `Sign up with ${deps.config.oidc.name}`,
      }),
    );
  }
  return {
    action: flowAction(deps.config, flow),
    method: 'POST',
    nodes: withFieldMessages(nodes, extras.fieldMessages ?? {}),
    messages: extras.messages ?? [],
  };
}

export async function createRegistrationFlow(
  deps: FlowDeps,
  call: FlowCall,
  query: { return_to?: string },
): Promise<FlowRecord> {
  if (!deps.config.registration.enabled) throw flowErrors.disabled('Registration');
  const returnTo = validateReturnTo(query.return_to, deps.config);
  if (call.session) throw flowErrors.alreadySignedIn();
  const flow = await insertFlow(deps.pool, {
    type: 'registration',
    returnTo,
    requestUrl: `${deps.config.publicUrl}${call.request.url}`,
    csrfCookie: call.csrfCookie,
    lifespanMs: deps.config.flowLifespanMs,
  });
  flow.ui = renderRegistration(deps, flow);
  await saveFlow(deps.pool, flow);
  return flow;
}

export async function submitRegistrationFlow(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  if (!deps.config.registration.enabled) throw flowErrors.disabled('Registration');
  if (call.session) throw flowErrors.alreadySignedIn();
  const method = field(body, 'method');

  if (method === 'oidc' || field(body, 'provider')) {
    const provider = deps.config.oidc;
    if (!provider || field(body, 'provider') !== provider.id) {
      flow.ui = renderRegistration(deps, flow, {
        messages: [text('provider_unknown', 'This sign-in provider is not configured.', 'error')],
      });
      await saveFlow(deps.pool, flow);
      return { status: 400, body: flowView(flow, call.csrfCookie) };
    }
    const started = await startOidc(deps.config, deps.logger, flow.id);
    flow.data = {
      ...flow.data,
      oidc: {
        state: started.state,
        nonce: started.nonce,
        verifier: started.verifier,
        purpose: 'registration',
      },
    };
    await saveFlow(deps.pool, flow);
    throw flowErrors.locationChange(started.url);
  }

  const values: RegistrationValues = {
    email: nestedField(body, 'traits.email').trim(),
    first: nestedField(body, 'traits.name.first').trim(),
    last: nestedField(body, 'traits.name.last').trim(),
  };
  const password = field(body, 'password');
  const fieldMessages: Record<string, UiText[]> = {};
  const messages: UiText[] = [];
  if (method !== 'password') messages.push(text('method_unknown', 'Choose how to sign up.', 'error'));
  if (!values.email) fieldMessages['traits.email'] = [text('required', REQUIRED, 'error')];
  else if (!isEmailAddress(values.email)) {
    fieldMessages['traits.email'] = [text('email_invalid', 'Enter a valid email address.', 'error')];
  }
  const problems = passwordProblems(password, values.email ?? '');
  if (problems.length > 0) fieldMessages.password = problems;
  if (
    values.email &&
    !fieldMessages['traits.email'] &&
    (await findActivePersonByEmail(deps.pool, values.email))
  ) {
    fieldMessages['traits.email'] = [
      text('email_taken', 'An account with this email address already exists.', 'error'),
    ];
  }
  if (messages.length > 0 || Object.keys(fieldMessages).length > 0) {
    flow.ui = renderRegistration(deps, flow, { messages, fieldMessages, values });
    await saveFlow(deps.pool, flow);
    return { status: 400, body: flowView(flow, call.csrfCookie) };
  }

  const email = normaliseEmail(values.email as string);
  const role = deps.config.registration.role;
  let person;
  try {
    person = await withTransaction(deps.pool, (client) =>
      createIdentity(client, {
        email,
        firstName: values.first ?? '',
        lastName: values.last ?? '',
        roles: role ? [role] : [],
        verified: false,
        password,
      }),
    );
  } catch (error) {
    // Two registrations of one address at once: the unique index decides, the loser sees why.
    if ((error as { code?: string }).code === '23505') {
      flow.ui = renderRegistration(deps, flow, {
        fieldMessages: {
          'traits.email': [
            text('email_taken', 'An account with this email address already exists.', 'error'),
          ],
        },
        values,
      });
      await saveFlow(deps.pool, flow);
      return { status: 400, body: flowView(flow, call.csrfCookie) };
    }
    throw error;
  }
  await expireFlow(deps.pool, flow.id);
  const issued = await signIn(deps, call, person.id, 'password', 'aal1');
  const continueWith: unknown[] = [];
  if (deps.mailer.configured) {
    const verification = await startVerificationForAddress(deps, call, {
      personId: person.id,
      address: email,
      returnTo: flow.returnTo ?? '/',
    });
    continueWith.push({
      action: 'show_verification_ui',
      flow: { id: verification.id, verifiable_address: email },
    });
  }
  return {
    status: 200,
    body: {
      identity: (await sessionView(deps.pool, issued.record, issued.token)).identity,
      session: await sessionView(deps.pool, issued.record, issued.token),
      return_to: flow.returnTo ?? '/',
      redirect_browser_to: flow.returnTo ?? '/',
      continue_with: continueWith,
    },
  };
}
