import { zodResolver } from '@hookform/resolvers/zod';
import { INCIDENT_SEVERITY_LEVELS, INCIDENT_TYPES } from '@opsdeck/contracts';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button/button';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { Modal } from '../../../components/modal/modal';
import { optionsOf, SelectMenu } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast } from '../../../components/toasts/toasts';
import { useCreateIncident } from '../api/incident-mutations';
import {
  EMPTY_INCIDENT_FORM,
  incidentFormSchema,
  type IncidentFormValues,
  type NewIncident,
} from '../lib/incident-form';

const FORM_ID = 'create-incident-form';

/** Create incident (spec core §7 create body: title, severity, type, description). */
export function CreateIncidentDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<IncidentFormValues, unknown, NewIncident>({
    resolver: zodResolver(incidentFormSchema),
    defaultValues: EMPTY_INCIDENT_FORM,
  });
  const create = useCreateIncident();
  const navigate = useNavigate();

  const close = () => {
    reset(EMPTY_INCIDENT_FORM);
    onClose();
  };

  const submit = handleSubmit((incident) =>
    create.mutate(incident, {
      onSuccess: (created) => {
        close();
        void navigate(`/incidents/${created.id}`);
      },
      onError: (error) => showErrorToast(error),
    }),
  );

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create Incident"
      size="small"
      footer={
        <div className="flex justify-end gap-2">
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" form={FORM_ID} disabled={create.isPending}>
            {create.isPending ? 'Creating..' : 'Create'}
          </Button>
        </div>
      }
    >
      <form id={FORM_ID} noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
        <FormField label="Title" error={errors.title?.message}>
          <Input {...register('title')} />
        </FormField>
        <FormField label="Severity" error={errors.severity?.message}>
          <Controller
            control={control}
            name="severity"
            render={({ field }) => (
              <SelectMenu
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                placeholder="Select severity"
                options={optionsOf(INCIDENT_SEVERITY_LEVELS)}
                className="w-full"
                floating
              />
            )}
          />
        </FormField>
        <FormField label="Type" error={errors.type?.message}>
          <Controller
            control={control}
            name="type"
            render={({ field }) => (
              <SelectMenu
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                placeholder="Select type"
                options={optionsOf(INCIDENT_TYPES)}
                className="w-full"
                floating
              />
            )}
          />
        </FormField>
        <FormField label="Description">
          <Textarea rows={4} {...register('description')} />
        </FormField>
      </form>
    </Modal>
  );
}
