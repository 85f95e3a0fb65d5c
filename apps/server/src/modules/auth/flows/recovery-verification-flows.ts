import type { AuthConfig } from '../auth-config.js';
import { reserveEmailSend, waitText } from '../email-throttle.js';
import { clientAddress } from '../http.js';
import {
  findActivePerson,
  findActivePersonByEmail,
  isEmailAddress,
  markAddressVerified,
  normaliseEmail,
} from '../identity-store.js';
import { issueCode, redeemFlowCode, redeemLinkToken, type CodeKind } from '../one-time-codes.js';
import {
  csrfNode,
  expireFlow,
  field,
  flowErrors,
  flowView,
  insertFlow,
  loadFlow,
  node,
  REQUIRED,
  saveFlow,
  text,
  validateReturnTo,
  withFieldMessages,
  type FlowRecord,
  type FlowUi,
  type UiNode,
  type UiText,
} from './flow-core.js';
import { screenUrl, signIn, type FlowCall, type FlowDeps } from './flow-context.js';
import { flowAction } from './login-flow.js';
import { createSettingsFlowFor } from './settings-flow.js';

/**
 * Recovery and verification: an address gets a six-digit code and a link by email (SMTP_URL);
 * the code is typed into the same flow, the link works from any browser. States follow the
 * identity system the screens expect: choose_method → sent_email → passed_challenge.
 */

export const NO_MAIL_MESSAGE =
  'This server cannot send email because no mail server is configured (SMTP_URL), so no code was sent. Ask an administrator for help.';
const SEND_FAILED_MESSAGE = 'The email could not be sent. Please try again later or ask an administrator.';

type CodeFlowType = 'recovery' | 'verification';

function renderCodeFlow(
  config: AuthConfig,
  flow: FlowRecord,
  extras: { messages?: UiText[]; fieldMessages?: Record<string, UiText[]>; email?: string } = {},
): FlowUi {
  const nodes: UiNode[] = [csrfNode()];
  if (flow.state === 'sent_email') {
    nodes.push(
      node('code', 'code', 'text', {
        required: true,
        label: flow.type === 'recovery' ? 'Recovery code' : 'Verification code',
        autocomplete: 'one-time-code',
      }),
      node('code', 'method', 'submit', { value: 'code', label: 'Submit' }),
      node('code', 'email', 'submit', { value: flow.data.address ?? '', label: 'Resend code' }),
    );
  } else if (flow.state !== 'passed_challenge') {
    nodes.push(
      node('code', 'email', 'email', {
        required: true,
        label: 'Email',
        autocomplete: 'email',
        value: extras.email ?? '',
      }),
      node('code', 'method', 'submit', { value: 'code', label: 'Submit' }),
    );
  }
  return {
    action: flowAction(config, flow),
    method: 'POST',
    nodes: withFieldMessages(nodes, extras.fieldMessages ?? {}),
    messages: extras.messages ?? [],
  };
}

async function createCodeFlow(
  deps: FlowDeps,
  call: FlowCall,
  type: CodeFlowType,
  options: {
    returnTo: string;
    state?: string;
    messages?: UiText[];
    email?: string;
    personId?: string | null;
  },
): Promise<FlowRecord> {
  const flow = await insertFlow(deps.pool, {
    type,
    state: options.state ?? 'choose_method',
    personId: options.personId ?? null,
    returnTo: options.returnTo,
    requestUrl: `${deps.config.publicUrl}${call.request.url}`,
    csrfCookie: call.csrfCookie,
    lifespanMs: deps.config.flowLifespanMs,
  });
  flow.ui = renderCodeFlow(deps.config, flow, {
    messages: options.messages ?? [],
    ...(options.email ? { email: options.email } : {}),
  });
  await saveFlow(deps.pool, flow);
  return flow;
}

export async function createRecoveryFlow(
  deps: FlowDeps,
  call: FlowCall,
  query: { return_to?: string },
): Promise<FlowRecord> {
  const returnTo = validateReturnTo(query.return_to, deps.config);
  if (call.session) throw flowErrors.alreadySignedIn();
  return createCodeFlow(deps, call, 'recovery', { returnTo });
}

export async function createVerificationFlow(
  deps: FlowDeps,
  call: FlowCall,
  query: { return_to?: string },
): Promise<FlowRecord> {
  const returnTo = validateReturnTo(query.return_to, deps.config);
  return createCodeFlow(deps, call, 'verification', {
    returnTo,
    ...(call.session?.person.email ? { email: call.session.person.email } : {}),
  });
}

function mailFor(
  kind: CodeKind,
  config: AuthConfig,
  code: string,
  token: string,
  expiresAt: Date,
): { subject: string; text: string } {
  const link = `${config.publicUrl}/api/auth/self-service/${kind}/link?token=${encodeURIComponent(token)}`;
  const until = expiresAt.toISOString().replace('T', ' ').slice(0, 16);
  if (kind === 'recovery') {
    return {
      subject: 'Recover access to your Opsdeck account',
      text:
        `Someone asked to recover the Opsdeck account of this email address.\n\n` +
        `Your recovery code: ${code}\n\nOr open this link:\n${link}\n\n` +
        `The code and the link work once and expire at ${until} UTC. If you did not ask for this, ignore this email.\n`,
    };
  }
  return {
    subject: 'Verify your email address for Opsdeck',
    text:
      `Please confirm that this email address belongs to your Opsdeck account.\n\n` +
      `Your verification code: ${code}\n\nOr open this link:\n${link}\n\n` +
      `The code and the link work once and expire at ${until} UTC.\n`,
  };
}

/** The answer when recovery or verification emails come too often (EMAIL_THROTTLE_*). */
export function emailThrottledMessage(seconds: number): string {
  return `Too many emails were requested. Please try again in ${waitText(seconds)}.`;
}

/**
 * Sends a code for a flow; returns the message the flow shows, or `retryAfter` (seconds) when
 * the recipient or the client has asked for too many emails (nothing is sent then).
 */
async function sendCode(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  kind: CodeKind,
  address: string,
  personId: string | null,
): Promise<{ sent: boolean; message: UiText; retryAfter?: number }> {
  if (!deps.mailer.configured) {
    deps.logger?.error({ kind }, `cannot send the ${kind} email: SMTP_URL is not set`);
    return { sent: false, message: text('mail_unavailable', NO_MAIL_MESSAGE, 'error') };
  }
  const retryAfter = await reserveEmailSend(
    deps.pool,
    { recipient: address, client: clientAddress(call.request) },
    deps.config.emailThrottle,
  );
  if (retryAfter > 0) {
    deps.logger?.warn({ kind, retryAfter }, `${kind} email not sent: too many requested`);
    return {
      sent: false,
      retryAfter,
      message: text('mail_throttled', emailThrottledMessage(retryAfter), 'error'),
    };
  }
  const sentMessage = text(
    `${kind}_code_sent`,
    kind === 'recovery'
      ? 'If an account uses this email address, a recovery code has been sent to it. Enter the code below.'
      : 'If an account uses this email address, a verification code has been sent to it. Enter the code below.',
  );
  // Say the same whether or not the address is known, so the form cannot be used to probe accounts.
  if (!personId) return { sent: true, message: sentMessage };
  const issued = await issueCode(deps.pool, {
    kind,
    flowId: flow.id,
    personId,
    address,
    lifespanMs: deps.config.flowLifespanMs,
  });
  const mail = mailFor(kind, deps.config, issued.code, issued.token, issued.expiresAt);
  const delivered = await deps.mailer.send({ to: address, ...mail });
  return delivered
    ? { sent: true, message: sentMessage }
    : { sent: false, message: text('mail_failed', SEND_FAILED_MESSAGE, 'error') };
}

/** Starts a verification for a new account's address (after registration) and emails the code. */
export async function startVerificationForAddress(
  deps: FlowDeps,
  call: FlowCall,
  options: { personId: string; address: string; returnTo: string },
): Promise<FlowRecord> {
  const flow = await createCodeFlow(deps, call, 'verification', {
    returnTo: options.returnTo,
    personId: options.personId,
  });
  const { sent, message } = await sendCode(
    deps,
    call,
    flow,
    'verification',
    options.address,
    options.personId,
  );
  flow.state = sent ? 'sent_email' : 'choose_method';
  flow.data = { ...flow.data, address: options.address };
  flow.ui = renderCodeFlow(deps.config, flow, { messages: [message], email: options.address });
  await saveFlow(deps.pool, flow);
  return flow;
}

async function render(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  status: number,
  extras: Parameters<typeof renderCodeFlow>[2],
): Promise<{ status: number; body: unknown }> {
  flow.ui = renderCodeFlow(deps.config, flow, extras);
  await saveFlow(deps.pool, flow);
  return { status, body: flowView(flow, call.csrfCookie) };
}

export async function submitCodeFlow(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  const kind: CodeKind = flow.type === 'recovery' ? 'recovery' : 'verification';
  if (kind === 'recovery' && call.session) throw flowErrors.alreadySignedIn();
  if (flow.state === 'passed_challenge') {
    return render(deps, call, flow, 400, {
      messages: [text('flow_done', 'This form is complete. Start again to do it once more.', 'error')],
    });
  }
  const method = field(body, 'method') || 'code';
  if (method !== 'code')
    return render(deps, call, flow, 400, {
      messages: [text('method_unknown', 'Choose how to continue.', 'error')],
    });
  const code = field(body, 'code').trim();
  const email = field(body, 'email').trim();

  if (code && flow.state === 'sent_email') {
    const result = await redeemFlowCode(deps.pool, kind, flow.id, code);
    if (result === 'invalid' || result === 'exhausted') {
      const message =
        result === 'invalid'
          ? text('code_invalid', 'The code is not valid. Please try again.', 'error')
          : text(
              'code_spent',
              'The code is no longer valid. Enter your email address to get a new one.',
              'error',
            );
      if (result === 'exhausted') flow.state = 'choose_method';
      return render(deps, call, flow, 400, { messages: [message], email: flow.data.address ?? '' });
    }
    if (result.personId) await markAddressVerified(deps.pool, result.personId, result.address);
    flow.state = 'passed_challenge';
    if (kind === 'verification') {
      await expireFlow(deps.pool, flow.id);
      return render(deps, call, flow, 200, {
        messages: [text('verification_done', 'Your email address has been verified.', 'success')],
      });
    }
    const person = result.personId ? await findActivePerson(deps.pool, result.personId) : undefined;
    if (!person) throw flowErrors.notFound();
    await render(deps, call, flow, 200, {
      messages: [text('recovery_done', 'You have recovered your account. Choose a new password.', 'success')],
    });
    await expireFlow(deps.pool, flow.id);
    await signIn(deps, call, person.id, 'code_recovery', 'aal1');
    const settings = await createSettingsFlowFor(deps, call, person.id, flow.returnTo ?? '/', [
      text('recovery_done', 'You have recovered your account. Choose a new password now.', 'info'),
    ]);
    throw flowErrors.locationChange(screenUrl('settings', { flow: settings.id }));
  }

  if (!email) {
    return render(deps, call, flow, 400, {
      fieldMessages: { [code ? 'code' : 'email']: [text('required', REQUIRED, 'error')] },
    });
  }
  if (!isEmailAddress(email)) {
    return render(deps, call, flow, 400, {
      fieldMessages: { email: [text('email_invalid', 'Enter a valid email address.', 'error')] },
      email,
    });
  }
  const address = normaliseEmail(email);
  const person = await findActivePersonByEmail(deps.pool, address);
  flow.data = { ...flow.data, address };
  const { sent, message, retryAfter } = await sendCode(deps, call, flow, kind, address, person?.id ?? null);
  if (retryAfter !== undefined) {
    // The flow stays as it was (a code sent earlier still works); the screen shows the 429's message.
    throw flowErrors.throttled(retryAfter, message.text);
  }
  flow.state = sent ? 'sent_email' : 'choose_method';
  return render(deps, call, flow, sent ? 200 : 400, { messages: [message], email: address });
}

/**
 * GET of a recovery link from an email: signs the browser in and sends it to the settings
 * screen to choose a password; a spent or unknown link lands on a new recovery form saying so.
 */
export async function followRecoveryLink(deps: FlowDeps, call: FlowCall, token: string): Promise<string> {
  const redeemed = await redeemLinkToken(deps.pool, 'recovery', token);
  const person = redeemed?.personId ? await findActivePerson(deps.pool, redeemed.personId) : undefined;
  if (!redeemed || !person) {
    const flow = await createCodeFlow(deps, call, 'recovery', {
      returnTo: '/',
      messages: [
        text(
          'link_invalid',
          'This recovery link is invalid, has expired or was already used. Request a new one.',
          'error',
        ),
      ],
    });
    return screenUrl('recovery', { flow: flow.id });
  }
  await markAddressVerified(deps.pool, person.id, redeemed.address);
  if (redeemed.flowId) await expireFlow(deps.pool, redeemed.flowId);
  await signIn(deps, call, person.id, 'link_recovery', 'aal1');
  const settings = await createSettingsFlowFor(deps, call, person.id, '/', [
    text('recovery_done', 'You have recovered your account. Choose a new password now.', 'info'),
  ]);
  return screenUrl('settings', { flow: settings.id });
}

/**
 * GET of a verification link from an email: marks the address verified and shows the result,
 * keeping the return_to of the flow that sent the link (after registration: where the person
 * was going), so the screen's Continue leads there.
 */
export async function followVerificationLink(deps: FlowDeps, call: FlowCall, token: string): Promise<string> {
  const redeemed = await redeemLinkToken(deps.pool, 'verification', token);
  let returnTo = '/';
  if (redeemed?.personId) {
    await markAddressVerified(deps.pool, redeemed.personId, redeemed.address);
    if (redeemed.flowId) {
      returnTo = (await loadFlow(deps.pool, redeemed.flowId, 'verification'))?.returnTo ?? '/';
      await expireFlow(deps.pool, redeemed.flowId);
    }
  }
  const flow = await createCodeFlow(deps, call, 'verification', {
    returnTo,
    state: redeemed?.personId ? 'passed_challenge' : 'choose_method',
    messages: [
      redeemed?.personId
        ? text('verification_done', 'Your email address has been verified.', 'success')
        : text(
            'link_invalid',
            'This verification link is invalid, has expired or was already used. Request a new one.',
            'error',
          ),
    ],
  });
  return screenUrl('verification', { flow: flow.id });
}

/** An invite: a recovery link valid for INVITE_LIFESPAN that lets the new person set a password. */
export async function createInviteLink(
  deps: FlowDeps,
  person: { id: string; email: string },
): Promise<{ link: string; expiresAt: Date }> {
  const issued = await issueCode(deps.pool, {
    kind: 'recovery',
    flowId: null,
    personId: person.id,
    address: person.email,
    lifespanMs: deps.config.inviteLifespanMs,
  });
  return {
    link: `${deps.config.publicUrl}/api/auth/self-service/recovery/link?token=${encodeURIComponent(issued.token)}`,
    expiresAt: issued.expiresAt,
  };
}
