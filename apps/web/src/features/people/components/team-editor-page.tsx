import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FieldError, FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { ResourceEditor } from '../../../components/resource-editor/resource-editor';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import { TEAMS_PATH, useDeleteTeam, useSaveTeam, useTeam, type TeamRow } from '../api/teams';
import { EMPTY_TEAM_FORM, teamToForm, validateTeamForm, type TeamFormValues } from '../lib/team-form';
import { TeamMembers } from './team-members';

const FORM_ID = 'team-form';
const teamResolver = validationResolver(validateTeamForm);

function TeamForm({ team }: { team: TeamRow | null }) {
  const navigate = useNavigate();
  const canWrite = useCan('database', 'write');
  const save = useSaveTeam();
  const remove = useDeleteTeam();
  const managed = team !== null && team.source !== 'UI';
  const writable = canWrite && !managed;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<TeamFormValues, unknown, { name: string; icon: string; spec: Record<string, unknown> }>({
    resolver: teamResolver,
    defaultValues: team ? teamToForm(team) : EMPTY_TEAM_FORM,
  });

  const submit = handleSubmit((input) =>
    save.mutate(
      { id: team?.id, input },
      {
        onSuccess: () => {
          showSuccessToast(`${input.name} updated successfully`);
          void navigate(TEAMS_PATH);
        },
        onError: (error) => showErrorToast(error),
      },
    ),
  );

  return (
    <ResourceEditor
      list={{ label: 'Teams', path: TEAMS_PATH }}
      name={team?.name}
      newLabel="New team"
      tabsLabel="Team"
      members={team ? <TeamMembers teamId={team.id} canWrite={canWrite} /> : undefined}
      managedBy={managed ? { source: team.source, noun: 'team' } : undefined}
      save={writable ? { pending: save.isPending, form: FORM_ID } : undefined}
      remove={
        team && writable
          ? {
              title: 'Delete team',
              description: `Delete '${team.name}'? Its members and the permissions granted to it go with it.`,
              isLoading: remove.isPending,
              onConfirm: (close) =>
                remove.mutate(team.id, {
                  onSuccess: () => {
                    close();
                    showSuccessToast(`${team.name} deleted successfully`);
                    void navigate(TEAMS_PATH);
                  },
                  onError: (error) => {
                    close();
                    showErrorToast(error);
                  },
                }),
            }
          : undefined
      }
    >
      <form id={FORM_ID} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
          <FormField label="Name" required error={errors.name?.message}>
            <Input {...register('name')} disabled={team !== null || !writable} />
          </FormField>
          <FormField label="Icon" error={errors.icon?.message}>
            <Input {...register('icon')} disabled={!writable} />
          </FormField>
        </div>
        <div className="flex flex-col gap-1">
          <span className="text-sm font-medium text-gray-700">Spec</span>
          <Controller
            control={control}
            name="spec"
            render={({ field }) => (
              <CodeEditor
                label="Spec"
                language="yaml"
                value={field.value}
                onChange={field.onChange}
                readOnly={!writable}
                height="16rem"
              />
            )}
          />
          <FieldError id="team-spec-error" message={errors.spec?.message} />
        </div>
      </form>
    </ResourceEditor>
  );
}

/** /settings/teams/{id} ('new' to add one): the team editor with its Members tab (settings §2.4). */
export function TeamEditorPage() {
  const { id = 'new' } = useParams();
  const isNew = id === 'new';
  const team = useTeam(isNew ? undefined : id);
  if (isNew) return <TeamForm team={null} />;
  if (team.isPending) return <PageSkeleton label="Loading team" />;
  if (team.isError) throw team.error;
  if (!team.data) return <NoDetailsFound />;
  return <TeamForm key={team.data.id} team={team.data} />;
}
