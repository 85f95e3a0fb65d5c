import { zodResolver } from '@hookform/resolvers/zod';
import { inviteUserRequestSchema, ROLES, type InviteUser, type InviteUserRequest } from '@opsdeck/contracts';
import { Copy } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { optionsOf, SelectMenu } from '../../../components/select-menu/select-menu';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { copyToClipboard } from '../../../components/toasts/copy-to-clipboard';
import { useInviteUser } from '../api/users';

export const INVITE_TITLE = 'Invite User';

export interface InviteUserDialogProps {
  open: boolean;
  onClose(): void;
}

/** Invite User (spec core §7 `POST /auth/invite_user {firstName, lastName, email, role}`). */
export function InviteUserDialog({ open, onClose }: InviteUserDialogProps) {
  const [handOver, setHandOver] = useState<{ email: string; link: string } | null>(null);
  function close() {
    setHandOver(null);
    onClose();
  }
  return (
    <Modal open={open} onClose={close} title={INVITE_TITLE} size="small" enlargeable={false}>
      {handOver ? (
        <InviteLink {...handOver} onClose={close} />
      ) : (
        <InviteForm
          onClose={close}
          onInvited={(email, link, emailed) => {
            if (emailed) {
              showSuccessToast(`Invitation sent to ${email}`);
              close();
            } else setHandOver({ email, link });
          }}
        />
      )}
    </Modal>
  );
}

function InviteForm({
  onClose,
  onInvited,
}: {
  onClose(): void;
  onInvited(email: string, link: string, emailed: boolean): void;
}) {
  const invite = useInviteUser();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<InviteUserRequest, unknown, InviteUser>({
    resolver: zodResolver(inviteUserRequestSchema),
    defaultValues: { firstName: '', lastName: '', email: '', role: 'viewer' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (request) => {
    try {
      const answer = await invite.mutateAsync(request);
      onInvited(request.email, answer.link, answer.emailed);
    } catch (error) {
      showErrorToast(error);
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      <div className="grid grid-cols-2 gap-3">
        <FormField label="First Name" error={errors.firstName?.message}>
          <Input autoComplete="off" {...register('firstName')} />
        </FormField>
        <FormField label="Last Name" error={errors.lastName?.message}>
          <Input autoComplete="off" {...register('lastName')} />
        </FormField>
      </div>
      <FormField label="Email" required error={errors.email?.message}>
        <Input type="email" autoComplete="off" {...register('email')} />
      </FormField>
      <FormField label="Role" error={errors.role?.message}>
        <Controller
          control={control}
          name="role"
          render={({ field }) => (
            <SelectMenu
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              options={optionsOf(ROLES)}
              className="w-full"
              floating
            />
          )}
        />
      </FormField>
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting...' : 'Invite'}
        </Button>
      </div>
    </form>
  );
}

/** Without an email server the admin hands the one-time link over themselves. */
function InviteLink({ email, link, onClose }: { email: string; link: string; onClose(): void }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="text-gray-700">
        No email server is configured, so no email was sent. Give this link to {email}: it works once and lets
        them choose a password.
      </p>
      <div className="flex items-center gap-2">
        <Input readOnly value={link} aria-label="Invitation link" className="font-mono text-xs" />
        <Button onClick={() => void copyToClipboard(link, 'Copied to clipboard')}>
          <Copy className="size-4" aria-hidden />
          Copy
        </Button>
      </div>
      <div className="flex justify-end border-t border-gray-200 pt-3">
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </div>
    </div>
  );
}
