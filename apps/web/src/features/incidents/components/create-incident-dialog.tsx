import { INCIDENT_SEVERITY_LEVELS, INCIDENT_TYPES } from '@opsdeck/contracts';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal/modal';
import { showErrorToast } from '../../../components/toasts/toasts';
import { useCreateIncident } from '../api/incident-mutations';
import {
  EMPTY_INCIDENT_FORM,
  validateIncidentForm,
  type IncidentFormErrors,
  type IncidentFormValues,
} from '../lib/incident-form';

const inputClass = 'mt-1 block w-full rounded border border-gray-300 px-2 py-1.5 text-sm';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-xs text-red-600">
      {message}
    </p>
  );
}

/** Create incident (spec core §7 create body: title, severity, type, description). */
export function CreateIncidentDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const [values, setValues] = useState<IncidentFormValues>(EMPTY_INCIDENT_FORM);
  const [errors, setErrors] = useState<IncidentFormErrors>({});
  const create = useCreateIncident();
  const navigate = useNavigate();

  const close = () => {
    setValues(EMPTY_INCIDENT_FORM);
    setErrors({});
    onClose();
  };
  const set = (field: keyof IncidentFormValues) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateIncidentForm(values);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    create.mutate(result.value, {
      onSuccess: (incident) => {
        close();
        void navigate(`/incidents/${incident.id}`);
      },
      onError: (error) => showErrorToast(error),
    });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title="Create Incident"
      size="small"
      footer={
        <div className="flex justify-end gap-2">
          <button
            type="button"
            onClick={close}
            className="rounded border border-gray-300 px-3 py-1.5 text-sm"
          >
            Cancel
          </button>
          <button
            type="submit"
            form="create-incident-form"
            disabled={create.isPending}
            className="rounded bg-blue-600 px-3 py-1.5 text-sm text-white disabled:opacity-60"
          >
            {create.isPending ? 'Creating..' : 'Create'}
          </button>
        </div>
      }
    >
      <form id="create-incident-form" noValidate onSubmit={submit} className="flex flex-col gap-3">
        <label className="text-sm font-medium text-gray-700">
          Title
          <input
            className={inputClass}
            value={values.title}
            onChange={(e) => set('title')(e.target.value)}
            aria-invalid={Boolean(errors.title)}
            aria-describedby="incident-title-error"
          />
        </label>
        <FieldError id="incident-title-error" message={errors.title} />
        <label className="text-sm font-medium text-gray-700">
          Severity
          <select
            className={inputClass}
            value={values.severity}
            onChange={(e) => set('severity')(e.target.value)}
          >
            <option value="">Select severity</option>
            {INCIDENT_SEVERITY_LEVELS.map((severity) => (
              <option key={severity} value={severity}>
                {severity}
              </option>
            ))}
          </select>
        </label>
        <FieldError id="incident-severity-error" message={errors.severity} />
        <label className="text-sm font-medium text-gray-700">
          Type
          <select className={inputClass} value={values.type} onChange={(e) => set('type')(e.target.value)}>
            <option value="">Select type</option>
            {INCIDENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <FieldError id="incident-type-error" message={errors.type} />
        <label className="text-sm font-medium text-gray-700">
          Description
          <textarea
            className={inputClass}
            rows={4}
            value={values.description}
            onChange={(e) => set('description')(e.target.value)}
          />
        </label>
      </form>
    </Modal>
  );
}
