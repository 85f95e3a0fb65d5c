import { ROLES, type Role } from '@opsdeck/contracts';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { Modal } from '../../../components/modal/modal';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useUpdateRoles } from '../api/users';
import type { UserRow } from '../lib/users';

export interface EditRolesDialogProps {
  user: UserRow | null;
  onClose(): void;
}

/** Change a person's roles (`POST /api/people/update {id, roles}`): the server keeps the last admin. */
export function EditRolesDialog({ user, onClose }: EditRolesDialogProps) {
  return (
    <Modal
      open={user !== null}
      onClose={onClose}
      title={user ? `Roles of ${user.name}` : ''}
      size="very-small"
      enlargeable={false}
    >
      {user && <RolesForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function RolesForm({ user, onClose }: { user: UserRow; onClose(): void }) {
  const update = useUpdateRoles();
  const { register, handleSubmit } = useForm<{ roles: Role[] }>({ defaultValues: { roles: user.roles } });
  const submit = handleSubmit(async ({ roles }) => {
    try {
      await update.mutateAsync({ id: user.id, roles: roles || [] });
      showSuccessToast(`${user.name} updated successfully`);
      onClose();
    } catch (error) {
      showErrorToast(error);
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4 text-sm">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium text-gray-700">Roles</legend>
        {ROLES.map((role) => (
          <label key={role} className="inline-flex items-center gap-2 text-gray-700">
            <input type="checkbox" value={role} {...register('roles')} />
            {role}
          </label>
        ))}
      </fieldset>
      <div className="flex justify-end gap-2 border-t border-gray-200 pt-3">
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
