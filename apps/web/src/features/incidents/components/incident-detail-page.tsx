import {
  INCIDENT_SEVERITY_LEVELS,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  responderTypeSchema,
} from '@opsdeck/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { FormattedDate } from '../../../components/date/age';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { Input } from '../../../components/input/input';
import { Select } from '../../../components/select/select';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { showErrorToast } from '../../../components/toasts/toasts';
import { useCan } from '../../../lib/permissions';
import {
  useIncidentDetail,
  usePeople,
  useTeams,
  type HistoryEntry,
  type IncidentComment,
  type IncidentSummary,
  type NamedRef,
  type Responder,
} from '../api/incident-detail';
import {
  addResponder,
  postStatusUpdate,
  removeResponder,
  updateIncident,
  useIncidentWrite,
} from '../api/incident-mutations';
import { formatSeconds } from '../lib/format-seconds';
import { requiredText } from '../lib/incident-form';
import { HypothesisTreeView } from './hypothesis-tree-view';
import { SeverityBadge, StatusBadge } from './incident-badges';
import { CommentText } from './mention-input';

type Write = ReturnType<typeof useIncidentWrite<() => Promise<unknown>>>;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-xs font-medium text-gray-500">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function ValueSelect(props: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  disabled: boolean;
  onChange(value: string): void;
}) {
  return (
    <Select
      compact
      aria-label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
    >
      {props.options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </Select>
  );
}

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

function EditableTitle({
  incident,
  canWrite,
  write,
}: {
  incident: IncidentSummary;
  canWrite: boolean;
  write: Write;
}) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(incident.title);
  if (!editing) {
    return (
      <div className="flex items-center gap-2">
        <h1 className="text-xl font-semibold">{incident.title}</h1>
        {canWrite && (
          <Button
            size="sm"
            onClick={() => {
              setTitle(incident.title);
              setEditing(true);
            }}
          >
            Edit title
          </Button>
        )}
      </div>
    );
  }
  const save = (event: FormEvent) => {
    event.preventDefault();
    const value = requiredText(title);
    if (!value) return;
    write.mutate(() => updateIncident({ id: incident.id, changes: { title: value } }), {
      onSuccess: () => setEditing(false),
      onError: (error) => showErrorToast(error),
    });
  };
  return (
    <form onSubmit={save} className="flex items-center gap-2">
      <input
        aria-label="Title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        className="rounded border border-gray-300 px-2 py-1 text-lg"
      />
      <Button size="sm" type="submit" disabled={!title.trim()}>
        Save
      </Button>
      <Button size="sm" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}

function Responders(props: {
  incidentId: string;
  responders: Responder[];
  people: NamedRef[];
  teams: NamedRef[];
  canWrite: boolean;
  write: Write;
}) {
  const [choice, setChoice] = useState('');
  const nameOf = (responder: Responder) =>
    responder.person_id
      ? (props.people.find((p) => p.id === responder.person_id)?.name ?? responder.person_id)
      : (props.teams.find((t) => t.id === responder.team_id)?.name ?? responder.team_id ?? '');
  const add = (event: FormEvent) => {
    event.preventDefault();
    const [choiceKind, id] = choice.split(':');
    const kind = responderTypeSchema.safeParse(choiceKind).data;
    if (!kind || !id) return;
    props.write.mutate(() => addResponder({ incidentId: props.incidentId, kind, id }), {
      onSuccess: () => setChoice(''),
      onError: (error) => showErrorToast(error),
    });
  };
  return (
    <section aria-labelledby="responders-heading" className="flex flex-col gap-2">
      <h2 id="responders-heading" className="text-lg font-semibold">
        Responders
      </h2>
      {props.responders.length === 0 && <p className="text-sm text-gray-500">No responders</p>}
      <ul aria-label="Responders" className="flex flex-col gap-1">
        {props.responders.map((responder) => (
          <li key={responder.id} className="flex items-center gap-2 text-sm">
            <span>{nameOf(responder)}</span>
            <span className="text-xs text-gray-500">{responder.team_id ? 'team' : 'person'}</span>
            {props.canWrite && (
              <Button
                size="sm"
                aria-label={`Remove ${nameOf(responder)}`}
                onClick={() =>
                  props.write.mutate(() => removeResponder(responder.id), {
                    onError: (e) => showErrorToast(e),
                  })
                }
              >
                Remove
              </Button>
            )}
          </li>
        ))}
      </ul>
      {props.canWrite && (
        <form onSubmit={add} className="flex items-center gap-2">
          <Select
            compact
            aria-label="New responder"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
          >
            <option value="">Select a person or team</option>
            <optgroup label="People">
              {props.people.map((person) => (
                <option key={person.id} value={`person:${person.id}`}>
                  {person.name}
                </option>
              ))}
            </optgroup>
            <optgroup label="Teams">
              {props.teams.map((team) => (
                <option key={team.id} value={`team:${team.id}`}>
                  {team.name}
                </option>
              ))}
            </optgroup>
          </Select>
          <Button size="sm" type="submit" disabled={!choice}>
            Add responder
          </Button>
        </form>
      )}
    </section>
  );
}

/** Status updates: short public updates, each with the status the incident moved to. */
function StatusUpdates(props: {
  incident: IncidentSummary;
  updates: IncidentComment[];
  canWrite: boolean;
  personName(id: string | null): string;
  write: Write;
}) {
  const [status, setStatus] = useState<string>(props.incident.status);
  const [message, setMessage] = useState('');
  const post = (event: FormEvent) => {
    event.preventDefault();
    const text = requiredText(message);
    if (!text) return;
    props.write.mutate(() => postStatusUpdate({ incidentId: props.incident.id, status, message: text }), {
      onSuccess: () => setMessage(''),
      onError: (error) => showErrorToast(error),
    });
  };
  return (
    <section aria-labelledby="status-updates-heading" className="flex flex-col gap-2">
      <h2 id="status-updates-heading" className="text-lg font-semibold">
        Status updates
      </h2>
      {props.updates.length === 0 && <p className="text-sm text-gray-500">No status updates</p>}
      <ul aria-label="Status updates" className="flex flex-col gap-2">
        {[...props.updates].reverse().map((update) => (
          <li key={update.id} className="flex flex-col gap-0.5 border-l-2 border-blue-200 pl-3 text-sm">
            <div className="flex items-center gap-2">
              <StatusBadge status={update.status ?? ''} />
              <span className="font-medium">{props.personName(update.created_by)}</span>
              <FormattedDate value={update.created_at} className="text-xs text-gray-500" />
            </div>
            <CommentText comment={update.comment} />
          </li>
        ))}
      </ul>
      {props.canWrite && (
        <form onSubmit={post} className="flex flex-wrap items-center gap-2">
          <Select compact aria-label="New status" value={status} onChange={(e) => setStatus(e.target.value)}>
            {INCIDENT_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </Select>
          <Input
            compact
            aria-label="Status update"
            value={message}
            maxLength={1000}
            placeholder="What changed?"
            onChange={(e) => setMessage(e.target.value)}
            className="min-w-80"
          />
          <Button size="sm" type="submit" disabled={!message.trim() || props.write.isPending}>
            Post update
          </Button>
        </form>
      )}
    </section>
  );
}

/** How a timeline entry reads: a comment that is a status update says so. */
function entryLabel(entry: HistoryEntry, comments: IncidentComment[]): string {
  if (entry.type === 'responder.commented' && entry.comment_id) {
    const comment = comments.find((c) => c.id === entry.comment_id);
    if (comment?.status) return `status update (${comment.status})`;
  }
  return entry.type;
}

/** Incident details (spec core §2): fields, durations, responders, hypotheses and changelog. */
export function IncidentDetailPage() {
  const { id = '' } = useParams();
  const query = useIncidentDetail(id);
  const people = usePeople();
  const teams = useTeams();
  const canWrite = useCan('incident', 'write');
  const write = useIncidentWrite((run: () => Promise<unknown>) => run());

  if (query.isPending) return <PageSkeleton label="Loading incident" />;
  if (query.isError) throw query.error;
  const { incident, hypotheses, comments, evidences, responders, histories } = query.data;
  if (!incident) return <NoDetailsFound />;

  const peopleList = people.data ?? [];
  const personName = (personId: string | null) =>
    personId ? (peopleList.find((p) => p.id === personId)?.name ?? personId) : 'System';
  const change = (changes: Record<string, unknown>) =>
    write.mutate(() => updateIncident({ id: incident.id, changes }), { onError: (e) => showErrorToast(e) });
  const personOptions = [
    { value: '', label: 'Nobody' },
    ...peopleList.map((p) => ({ value: p.id, label: p.name })),
  ];

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <div className="flex items-center gap-3">
          <span className="font-mono text-sm text-gray-500">{incident.incident_id}</span>
          <EditableTitle key={incident.title} incident={incident} canWrite={canWrite} write={write} />
        </div>
        <div className="flex items-center gap-2">
          <SeverityBadge severity={incident.severity} />
          <StatusBadge status={incident.status} />
        </div>
        {incident.description && <p className="text-sm text-gray-700">{incident.description}</p>}
      </header>
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
        <Field label="Status">
          <ValueSelect
            label="Status"
            value={incident.status}
            options={asOptions(INCIDENT_STATUSES)}
            disabled={!canWrite}
            onChange={(status) => change({ status })}
          />
        </Field>
        <Field label="Severity">
          <ValueSelect
            label="Severity"
            value={incident.severity}
            options={asOptions(INCIDENT_SEVERITY_LEVELS)}
            disabled={!canWrite}
            onChange={(severity) => change({ severity })}
          />
        </Field>
        <Field label="Type">
          <ValueSelect
            label="Type"
            value={incident.type}
            options={asOptions(INCIDENT_TYPES)}
            disabled={!canWrite}
            onChange={(type) => change({ type })}
          />
        </Field>
        <Field label="Created">
          <FormattedDate value={incident.created_at} />
        </Field>
        <Field label="Commander">
          {canWrite ? (
            <ValueSelect
              label="Commander"
              value={incident.commander_id ?? ''}
              options={personOptions}
              disabled={false}
              onChange={(value) => change({ commander_id: value || null })}
            />
          ) : (
            (incident.commander?.name ?? '')
          )}
        </Field>
        <Field label="Communicator">
          {canWrite ? (
            <ValueSelect
              label="Communicator"
              value={incident.communicator_id ?? ''}
              options={personOptions}
              disabled={false}
              onChange={(value) => change({ communicator_id: value || null })}
            />
          ) : (
            (incident.communicator?.name ?? '')
          )}
        </Field>
        <Field label="Time to acknowledge">{formatSeconds(incident.time_to_acknowledge)}</Field>
        <Field label="Time to mitigate">{formatSeconds(incident.time_to_mitigate)}</Field>
        <Field label="Time to resolve">{formatSeconds(incident.time_to_resolve)}</Field>
      </dl>
      <StatusUpdates
        key={incident.status}
        incident={incident}
        updates={comments.filter((comment) => comment.status)}
        canWrite={canWrite}
        personName={personName}
        write={write}
      />
      <Responders
        incidentId={incident.id}
        responders={responders}
        people={peopleList}
        teams={teams.data ?? []}
        canWrite={canWrite}
        write={write}
      />
      <HypothesisTreeView
        incidentId={incident.id}
        canWrite={canWrite}
        hypotheses={hypotheses}
        comments={comments}
        evidences={evidences}
        people={peopleList}
        personName={personName}
      />
      <section aria-labelledby="changelog-heading" className="flex flex-col gap-2">
        <h2 id="changelog-heading" className="text-lg font-semibold">
          Changelog
        </h2>
        <ul aria-label="Changelog" className="flex flex-col gap-1">
          {histories.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center gap-2 text-sm">
              <FormattedDate value={entry.created_at} className="text-xs text-gray-500" />
              <span className="font-medium">{personName(entry.created_by)}</span>
              <span className="text-gray-600">{entryLabel(entry, comments)}</span>
              {entry.description && <CommentText comment={entry.description} />}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
