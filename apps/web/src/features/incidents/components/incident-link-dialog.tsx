import { INCIDENT_TYPES } from '@opsdeck/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { Modal } from '../../../components/modal/modal';
import { TOAST_DURATION_MS, toastErrorMessage } from '../../../components/toasts/toasts';
import { useCan, useFeatureFlags } from '../../../lib/permissions';
import { linkToIncident, useHypothesisOptions, useIncidentOptions } from '../api/incident-link';
import { INCIDENTS_QUERY_KEY } from '../api/incident-list';
import {
  autoSelectedHypothesis,
  EMPTY_LINK_FORM,
  LINK_SEVERITIES,
  LINK_SUCCESS_MESSAGE,
  validateIncidentLink,
  type IncidentLinkErrors,
  type IncidentLinkTarget,
  type IncidentLinkValues,
} from '../lib/incident-link-form';

/** Spec settings §9: incident and hypothesis lookups are debounced 100 ms. */
export const LOOKUP_DEBOUNCE_MS = 100;
const CREATE = '__create__';

const inputClass = 'mt-1 block w-full rounded border border-gray-300 px-2 py-1.5 text-sm';
const labelClass = 'text-sm font-medium text-gray-700';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-xs text-red-600">
      {message}
    </p>
  );
}

export interface IncidentLinkDialogProps {
  open: boolean;
  onClose(): void;
  /** The check, catalog item, change, analysis or component being linked. */
  target: IncidentLinkTarget;
  /** Called after each attempt: true with the incident when linked, false when it failed. */
  onLinked?(linked: boolean, incidentId?: string): void;
}

/** The success toast (spec core §2): top right, 5000 ms, with a link to the incident. */
function showLinkedToast(incidentId: string, open: (path: string) => void) {
  const path = `/incidents/${incidentId}`;
  toast.success(
    (current) => (
      <span>
        {LINK_SUCCESS_MESSAGE}{' '}
        <a
          href={path}
          className="text-blue-700 underline"
          onClick={(event) => {
            event.preventDefault();
            toast.dismiss(current.id);
            open(path);
          }}
        >
          View incident
        </a>
      </span>
    ),
    { position: 'top-right', duration: TOAST_DURATION_MS },
  );
}

/**
 * The incident link dialog (spec core §2 "Incident link dialog"): pick or create an incident,
 * pick or create a hypothesis, severity and type for a new incident, a description; 'Link'
 * writes the evidence. Reusable for checks, catalog items, changes, analyses and components.
 */
export function IncidentLinkDialog({ open, onClose, target, onLinked }: IncidentLinkDialogProps) {
  const [values, setValues] = useState<IncidentLinkValues>(EMPTY_LINK_FORM);
  const [errors, setErrors] = useState<IncidentLinkErrors>({});
  const [failure, setFailure] = useState<string>();
  const [linking, setLinking] = useState(false);
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebounced(search, LOOKUP_DEBOUNCE_MS);
  const incidents = useIncidentOptions(debouncedSearch, open);
  const hypotheses = useHypothesisOptions(values.creatingIncident ? '' : values.incidentId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Spec core §2: an incident with exactly one hypothesis has it selected.
  const loadedFor = hypotheses.data ? values.incidentId : undefined;
  const [autoSelectedFor, setAutoSelectedFor] = useState<string>();
  if (loadedFor && autoSelectedFor !== loadedFor && hypotheses.data) {
    setAutoSelectedFor(loadedFor);
    const only = autoSelectedHypothesis(hypotheses.data);
    if (only && !values.hypothesisId && !values.creatingHypothesis) {
      setValues((v) => ({ ...v, hypothesisId: only }));
    }
  }

  const reset = () => {
    setValues(EMPTY_LINK_FORM);
    setErrors({});
    setFailure(undefined);
    setSearch('');
    setAutoSelectedFor(undefined);
  };
  const close = () => {
    reset();
    onClose();
  };
  const patch = (changes: Partial<IncidentLinkValues>) => setValues((v) => ({ ...v, ...changes }));

  const chooseIncident = (choice: string) => {
    // Spec core §2: the hypothesis selection clears when the incident changes.
    setAutoSelectedFor(undefined);
    patch({
      incidentId: choice === CREATE ? '' : choice,
      creatingIncident: choice === CREATE,
      hypothesisId: '',
      creatingHypothesis: false,
      newHypothesisTitle: '',
    });
  };
  const chooseHypothesis = (choice: string) =>
    patch({ hypothesisId: choice === CREATE ? '' : choice, creatingHypothesis: choice === CREATE });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = validateIncidentLink(values, target);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    setFailure(undefined);
    setLinking(true);
    linkToIncident(result.plan)
      .then(({ incidentId }) => {
        void queryClient.invalidateQueries({ queryKey: INCIDENTS_QUERY_KEY });
        showLinkedToast(incidentId, (path) => void navigate(path));
        onLinked?.(true, incidentId);
        close();
      })
      .catch((error: unknown) => {
        // Spec core §8: a failed link is logged and the callback receives false.
        // eslint-disable-next-line no-console -- the spec asks for this log entry (core §8)
        console.error('Linking to an incident failed', error);
        setFailure(toastErrorMessage(error));
        onLinked?.(false);
      })
      .finally(() => setLinking(false));
  };

  const incidentChoice = values.creatingIncident ? CREATE : values.incidentId;
  const hypothesisChoice = values.creatingHypothesis ? CREATE : values.hypothesisId;
  const selectedMissing =
    values.incidentId && !incidents.data?.some((incident) => incident.id === values.incidentId);

  let hypothesisField: ReactNode = null;
  if (values.creatingIncident) {
    hypothesisField = (
      <label className={labelClass}>
        Hypothesis
        <input
          className={inputClass}
          value={values.newHypothesisTitle}
          placeholder="Defaults to the incident title"
          onChange={(e) => patch({ newHypothesisTitle: e.target.value })}
        />
      </label>
    );
  } else if (values.incidentId) {
    hypothesisField = (
      <>
        <label className={labelClass}>
          Hypothesis
          <select
            className={inputClass}
            aria-label="Hypothesis"
            value={hypothesisChoice}
            onChange={(e) => chooseHypothesis(e.target.value)}
            aria-invalid={Boolean(errors.hypothesis)}
            aria-describedby="link-hypothesis-error"
          >
            <option value="">{hypotheses.isPending ? 'Loading..' : 'Select a hypothesis'}</option>
            {(hypotheses.data ?? []).map((hypothesis) => (
              <option key={hypothesis.id} value={hypothesis.id}>
                {hypothesis.title}
              </option>
            ))}
            <option value={CREATE}>Create new hypothesis</option>
          </select>
        </label>
        {values.creatingHypothesis && (
          <label className={labelClass}>
            New hypothesis
            <input
              className={inputClass}
              value={values.newHypothesisTitle}
              onChange={(e) => patch({ newHypothesisTitle: e.target.value })}
            />
          </label>
        )}
        <FieldError id="link-hypothesis-error" message={errors.hypothesis} />
      </>
    );
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title="Link to incident"
      size="small"
      enlargeable={false}
      footer={
        <div className="flex items-center justify-end gap-2">
          {failure && (
            <p role="alert" className="mr-auto text-sm text-red-600">
              {failure}
            </p>
          )}
          <button
            type="button"
            onClick={close}
            className="rounded border border-gray-300 px-3 py-1.5 text-sm"
          >
            Cancel
          </button>
          <button
            type="submit"
            form="incident-link-form"
            disabled={linking}
            className="rounded bg-blue-600 px-3 py-1.5 text-sm text-white disabled:opacity-60"
          >
            {linking ? 'Linking..' : 'Link'}
          </button>
        </div>
      }
    >
      <form id="incident-link-form" noValidate onSubmit={submit} className="flex flex-col gap-3">
        <p className="text-sm text-gray-600">
          Evidence: <span className="font-medium text-gray-900">{target.name}</span>
        </p>
        <label className={labelClass}>
          Find incident
          <input
            type="search"
            className={inputClass}
            value={search}
            placeholder="Search by title"
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label className={labelClass}>
          Incident
          <select
            className={inputClass}
            aria-label="Incident"
            value={incidentChoice}
            onChange={(e) => chooseIncident(e.target.value)}
            aria-invalid={Boolean(errors.incident)}
            aria-describedby="link-incident-error"
          >
            <option value="">{incidents.isPending ? 'Loading..' : 'Select an incident'}</option>
            {selectedMissing && <option value={values.incidentId}>Selected incident</option>}
            {(incidents.data ?? []).map((incident) => (
              <option key={incident.id} value={incident.id}>
                {incident.title} ({incident.status})
              </option>
            ))}
            <option value={CREATE}>Create new incident</option>
          </select>
        </label>
        {values.creatingIncident && (
          <label className={labelClass}>
            New incident title
            <input
              className={inputClass}
              value={values.newIncidentTitle}
              onChange={(e) => patch({ newIncidentTitle: e.target.value })}
              aria-invalid={Boolean(errors.incident)}
            />
          </label>
        )}
        <FieldError id="link-incident-error" message={errors.incident} />
        {values.creatingIncident && (
          <>
            <label className={labelClass}>
              Severity
              <select
                className={inputClass}
                aria-label="Severity"
                value={values.severity}
                onChange={(e) => patch({ severity: e.target.value })}
                aria-invalid={Boolean(errors.severity)}
                aria-describedby="link-severity-error"
              >
                <option value="">Select severity</option>
                {LINK_SEVERITIES.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            <FieldError id="link-severity-error" message={errors.severity} />
            <label className={labelClass}>
              Type
              <select
                className={inputClass}
                aria-label="Type"
                value={values.type}
                onChange={(e) => patch({ type: e.target.value })}
                aria-invalid={Boolean(errors.type)}
                aria-describedby="link-type-error"
              >
                <option value="">Select type</option>
                {INCIDENT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
            </label>
            <FieldError id="link-type-error" message={errors.type} />
          </>
        )}
        {hypothesisField}
        <label className={labelClass}>
          Description
          <textarea
            className={inputClass}
            rows={3}
            value={values.description}
            onChange={(e) => patch({ description: e.target.value })}
          />
        </label>
      </form>
    </Modal>
  );
}

/**
 * Spec core §6: 'Attach as Evidence' shows only while the incidents feature is on and the user
 * may write incidents.
 */
export function useCanAttachEvidence(): boolean {
  const flags = useFeatureFlags();
  const canWrite = useCan('incident', 'write');
  return canWrite && !flags.isLoading && flags.isEnabled('incidents');
}

/** The 'Attach as Evidence' button with its dialog; renders nothing for users who may not. */
export function AttachAsEvidenceButton({
  target,
  className,
  onLinked,
}: {
  target: IncidentLinkTarget;
  className?: string;
  onLinked?: IncidentLinkDialogProps['onLinked'];
}) {
  const [open, setOpen] = useState(false);
  const [linked, setLinked] = useState<string>();
  const allowed = useCanAttachEvidence();
  if (!allowed) return null;
  return (
    <>
      {linked && (
        // A modal host (the check panel) makes the toaster inert: the link is offered here too.
        <span role="status" className="text-sm text-green-700">
          {LINK_SUCCESS_MESSAGE}{' '}
          <Link to={`/incidents/${linked}`} className="text-blue-700 underline">
            View incident
          </Link>
        </span>
      )}
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={className ?? 'rounded border border-gray-300 px-3 py-1 text-sm hover:bg-gray-50'}
      >
        Attach as Evidence
      </button>
      {open && (
        <IncidentLinkDialog
          open={open}
          onClose={() => setOpen(false)}
          target={target}
          onLinked={(ok, incidentId) => {
            if (ok && incidentId) setLinked(incidentId);
            onLinked?.(ok, incidentId);
          }}
        />
      )}
    </>
  );
}
