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
import { Avatar } from '../../../components/avatar/avatar';
import { Badge } from '../../../components/badge/badge';
import { Card } from '../../../components/card/card';
import { SelectMenu } from '../../../components/select-menu/select-menu';
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
    <SelectMenu
      compact
      aria-label={props.label}
      value={props.value}
      options={props.options}
      disabled={props.disabled}
      onChange={props.onChange}
      className="w-full"
    />
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
            <Avatar name={nameOf(responder)} size="sm" />
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
          <SelectMenu
            compact
            aria-label="New responder"
            value={choice}
            placeholder="Select a person or team"
            options={[
              ...props.people.map((person) => ({ value: `person:${person.id}`, label: person.name })),
              ...props.teams.map((team) => ({ value: `team:${team.id}`, label: `Team: ${team.name}` })),
            ]}
            onChange={setChoice}
            className="min-w-48"
          />
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
          <SelectMenu
            compact
            aria-label="New status"
            value={status}
            options={INCIDENT_STATUSES.map((value) => ({ value, label: value }))}
            onChange={setStatus}
          />
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

/** A stage the incident reached, with how long it took; grey while not reached. */
function StageBadge({ stage, seconds }: { stage: string; seconds: number | null | undefined }) {
  const reached = seconds !== null && seconds !== undefined && Number.isFinite(seconds) && seconds >= 0;
  return (
    <Badge tone={reached ? 'green' : 'gray'}>
      {reached ? `${stage} in ${formatSeconds(seconds)}` : `Not ${stage.toLowerCase()}`}
    </Badge>
  );
}

/** The commander or communicator: their avatar and name, and a picker for writers. */
function PersonRole(props: {
  label: string;
  name: string | null | undefined;
  value: string;
  options: readonly { value: string; label: string }[];
  canWrite: boolean;
  onChange(value: string): void;
}) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <Avatar name={props.name || undefined} size="sm" />
      {props.canWrite ? (
        <span className="min-w-0 flex-1">
          <ValueSelect
            label={props.label}
            value={props.value}
            options={props.options}
            disabled={false}
            onChange={props.onChange}
          />
        </span>
      ) : (
        <span>{props.name || 'Nobody'}</span>
      )}
    </span>
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
    <div className="flex flex-col gap-4">
      <Card as="header">
        <div className="flex flex-wrap items-center gap-3">
          <span className="font-mono text-sm text-gray-500">{incident.incident_id}</span>
          <EditableTitle key={incident.title} incident={incident} canWrite={canWrite} write={write} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <SeverityBadge severity={incident.severity} />
          <StatusBadge status={incident.status} />
          <Badge tone="blue">{incident.type}</Badge>
          <StageBadge stage="Acknowledged" seconds={incident.time_to_acknowledge} />
          <StageBadge stage="Mitigated" seconds={incident.time_to_mitigate} />
          <StageBadge stage="Resolved" seconds={incident.time_to_resolve} />
          <span className="ml-auto flex items-center gap-1 text-xs text-gray-500">
            Opened <FormattedDate value={incident.created_at} />
          </span>
        </div>
        {incident.description && <p className="text-sm text-gray-700">{incident.description}</p>}
      </Card>
      {/* The workspace: the investigation in the wide column, who and what on the side. */}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <Card>
            <HypothesisTreeView
              incidentId={incident.id}
              canWrite={canWrite}
              hypotheses={hypotheses}
              comments={comments}
              evidences={evidences}
              people={peopleList}
              personName={personName}
            />
          </Card>
          <Card>
            <StatusUpdates
              key={incident.status}
              incident={incident}
              updates={comments.filter((comment) => comment.status)}
              canWrite={canWrite}
              personName={personName}
              write={write}
            />
          </Card>
          <Card as="section" aria-labelledby="changelog-heading">
            <h2 id="changelog-heading" className="text-lg font-semibold">
              Changelog
            </h2>
            <ol
              aria-label="Changelog"
              className="relative ml-2 flex flex-col gap-3 border-l border-gray-200 pl-4"
            >
              {histories.map((entry) => (
                <li key={entry.id} className="relative flex flex-col gap-0.5 text-sm">
                  <span
                    aria-hidden
                    className="absolute top-1.5 -left-[21px] size-2.5 rounded-full border-2 border-white bg-blue-500"
                  />
                  <span className="flex flex-wrap items-center gap-2">
                    <Avatar name={personName(entry.created_by)} size="sm" />
                    <span className="font-medium">{personName(entry.created_by)}</span>
                    <span className="text-gray-600">{entryLabel(entry, comments)}</span>
                    <FormattedDate value={entry.created_at} className="text-xs text-gray-500" />
                  </span>
                  {entry.description && <CommentText comment={entry.description} />}
                </li>
              ))}
            </ol>
          </Card>
        </div>
        <aside aria-label="Incident details" className="flex flex-col gap-4">
          <Card>
            <dl className="flex flex-col gap-3">
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
              <Field label="Commander">
                <PersonRole
                  label="Commander"
                  name={incident.commander?.name}
                  value={incident.commander_id ?? ''}
                  options={personOptions}
                  canWrite={canWrite}
                  onChange={(value) => change({ commander_id: value || null })}
                />
              </Field>
              <Field label="Communicator">
                <PersonRole
                  label="Communicator"
                  name={incident.communicator?.name}
                  value={incident.communicator_id ?? ''}
                  options={personOptions}
                  canWrite={canWrite}
                  onChange={(value) => change({ communicator_id: value || null })}
                />
              </Field>
              <Field label="Created">
                <FormattedDate value={incident.created_at} />
              </Field>
              <Field label="Time to acknowledge">{formatSeconds(incident.time_to_acknowledge)}</Field>
              <Field label="Time to mitigate">{formatSeconds(incident.time_to_mitigate)}</Field>
              <Field label="Time to resolve">{formatSeconds(incident.time_to_resolve)}</Field>
            </dl>
          </Card>
          <Card>
            <Responders
              incidentId={incident.id}
              responders={responders}
              people={peopleList}
              teams={teams.data ?? []}
              canWrite={canWrite}
              write={write}
            />
          </Card>
        </aside>
      </div>
    </div>
  );
}
