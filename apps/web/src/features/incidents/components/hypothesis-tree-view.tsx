import { HYPOTHESIS_STATUSES, NEW_HYPOTHESIS_DEFAULTS, type HypothesisType } from '@opsdeck/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { FormattedDate } from '../../../components/date/age';
import { Input } from '../../../components/input/input';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { showErrorToast } from '../../../components/toasts/toasts';
import type { Evidence, Hypothesis, IncidentComment, NamedRef } from '../api/incident-detail';
import {
  addComment,
  addEvidence,
  addHypothesis,
  deleteHypothesis,
  updateEvidence,
  updateHypothesisStatus,
  useIncidentWrite,
} from '../api/incident-mutations';
import { buildHypothesisTree, childTypeOf, type HypothesisNode } from '../lib/hypothesis-tree';
import { requiredText } from '../lib/incident-form';
import { CommentText, MentionInput } from './mention-input';
import { ResourceEvidenceAdder } from './resource-evidence-adder';

/** A one-line text form: trims, refuses blank text, clears after a successful save. */
function TextAdder(props: { label: string; button: string; onAdd(text: string): Promise<unknown> }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = requiredText(text);
    if (!value) return;
    setBusy(true);
    props
      .onAdd(value)
      .then(() => setText(''))
      .catch((error: unknown) => showErrorToast(error))
      .finally(() => setBusy(false));
  };
  return (
    <form onSubmit={submit} className="flex items-center gap-2">
      <Input compact aria-label={props.label} value={text} onChange={(e) => setText(e.target.value)} />
      <Button size="sm" type="submit" disabled={busy || !text.trim()}>
        {props.button}
      </Button>
    </form>
  );
}

interface TreeContext {
  incidentId: string;
  canWrite: boolean;
  comments: IncidentComment[];
  evidences: Evidence[];
  people: NamedRef[];
  personName(id: string | null): string;
  write: ReturnType<typeof useIncidentWrite<() => Promise<unknown>>>;
  askDelete(hypothesis: Hypothesis): void;
}

/** Where an evidence's resource is shown (core §2: a check's link, /catalog/{id} for a config). */
function evidenceHref(evidence: Evidence): string | undefined {
  if (evidence.check_id) return `/health?checkId=${evidence.check_id}&timeRange=1h`;
  if (evidence.config_id) return `/catalog/${evidence.config_id}`;
  if (evidence.component_id) return `/topology/${evidence.component_id}`;
  return undefined;
}

function EvidenceSubject({ evidence }: { evidence: Evidence }) {
  const href = evidenceHref(evidence);
  const text = evidence.description ?? evidence.type;
  return (
    <>
      <span className="rounded bg-gray-100 px-1 text-xs text-gray-700">{evidence.type}</span>
      {href ? (
        <Link to={href} className="text-blue-700 hover:underline">
          {text}
        </Link>
      ) : (
        <span>{text}</span>
      )}
    </>
  );
}

function EvidenceList({ hypothesisId, ctx }: { hypothesisId: string; ctx: TreeContext }) {
  const [definitionOfDone, setDefinitionOfDone] = useState(false);
  const evidences = ctx.evidences.filter((e) => e.hypothesis_id === hypothesisId);
  return (
    <div className="flex flex-col gap-1">
      <h5 className="text-xs font-semibold text-gray-600">Evidence</h5>
      {evidences.length === 0 && <p className="text-xs text-gray-500">No evidence</p>}
      <ul aria-label="Evidence" className="flex flex-col gap-1">
        {evidences.map((evidence) => (
          <li key={evidence.id} className="flex items-center gap-2 text-sm">
            <EvidenceSubject evidence={evidence} />
            {evidence.definition_of_done && (
              <label className="flex items-center gap-1 text-xs text-gray-700">
                <input
                  type="checkbox"
                  checked={evidence.done === true}
                  disabled={!ctx.canWrite}
                  onChange={(e) => {
                    // Read now: React resets a controlled input once the handler returns.
                    const done = e.target.checked;
                    ctx.write.mutate(() => updateEvidence({ id: evidence.id, changes: { done } }), {
                      onError: (error) => showErrorToast(error),
                    });
                  }}
                />
                Done
              </label>
            )}
            {evidence.definition_of_done && (
              <span className="rounded bg-purple-50 px-1 text-xs text-purple-800">Definition of done</span>
            )}
            {evidence.properties && Object.keys(evidence.properties).length > 0 && (
              <span className="text-xs text-gray-500">
                {Object.entries(evidence.properties)
                  .map(
                    ([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
                  )
                  .join(', ')}
              </span>
            )}
            {evidence.script && (
              <code aria-label="Script" className="rounded bg-gray-50 px-1 text-xs">
                {evidence.script}
              </code>
            )}
          </li>
        ))}
      </ul>
      {ctx.canWrite && (
        <div className="flex items-center gap-2">
          <TextAdder
            label="New evidence"
            button="Add evidence"
            onAdd={(description) =>
              ctx.write.mutateAsync(() => addEvidence({ hypothesisId, description, definitionOfDone }))
            }
          />
          <label className="flex items-center gap-1 text-xs text-gray-700">
            <input
              type="checkbox"
              checked={definitionOfDone}
              onChange={(e) => setDefinitionOfDone(e.target.checked)}
            />
            Definition of done
          </label>
        </div>
      )}
      {ctx.canWrite && (
        <ResourceEvidenceAdder hypothesisId={hypothesisId} onAdd={(write) => ctx.write.mutateAsync(write)} />
      )}
    </div>
  );
}

function CommentList({ hypothesisId, ctx }: { hypothesisId: string; ctx: TreeContext }) {
  const comments = ctx.comments.filter((c) => c.hypothesis_id === hypothesisId);
  return (
    <div className="flex flex-col gap-1">
      <h5 className="text-xs font-semibold text-gray-600">Comments</h5>
      <ul aria-label="Comments" className="flex flex-col gap-1">
        {comments.map((comment) => (
          <li key={comment.id} className="text-sm">
            <span className="font-medium">
              {comment.external_created_by ?? ctx.personName(comment.created_by)}
            </span>{' '}
            <FormattedDate value={comment.created_at} className="text-xs text-gray-500" />
            <CommentText comment={comment.comment} />
          </li>
        ))}
      </ul>
      {ctx.canWrite && (
        <MentionInput
          label="New comment"
          button="Comment"
          people={ctx.people}
          onAdd={(comment) =>
            ctx.write.mutateAsync(() => addComment({ incidentId: ctx.incidentId, hypothesisId, comment }))
          }
        />
      )}
    </div>
  );
}

function HypothesisItem({ node, ctx }: { node: HypothesisNode<Hypothesis>; ctx: TreeContext }) {
  const childType = childTypeOf(node.type);
  return (
    <li
      aria-label={`${node.type} hypothesis ${node.title}`}
      className="flex flex-col gap-2 border-l-2 border-gray-200 pl-3"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-gray-100 px-1.5 text-xs uppercase text-gray-700">{node.type}</span>
        <span className="font-medium">{node.title}</span>
        <SelectMenu
          compact
          aria-label={`Status of ${node.title}`}
          value={node.status}
          disabled={!ctx.canWrite}
          options={HYPOTHESIS_STATUSES.map((status) => ({ value: status, label: status }))}
          onChange={(status) =>
            ctx.write.mutate(() => updateHypothesisStatus({ id: node.id, status }), {
              onError: (error) => showErrorToast(error),
            })
          }
        />
        {ctx.canWrite && (
          <Button size="sm" onClick={() => ctx.askDelete(node)} aria-label={`Delete ${node.title}`}>
            Delete
          </Button>
        )}
      </div>
      <EvidenceList hypothesisId={node.id} ctx={ctx} />
      <CommentList hypothesisId={node.id} ctx={ctx} />
      {node.children.length > 0 && (
        <ul className="flex flex-col gap-3">
          {node.children.map((child) => (
            <HypothesisItem key={child.id} node={child} ctx={ctx} />
          ))}
        </ul>
      )}
      {ctx.canWrite && childType && (
        <TextAdder
          label={`New ${childType} under ${node.title}`}
          button={`Add ${childType}`}
          onAdd={(title) =>
            ctx.write.mutateAsync(() =>
              addHypothesis({ incidentId: ctx.incidentId, parentId: node.id, type: childType, title }),
            )
          }
        />
      )}
    </li>
  );
}

/** The hypothesis tree of an incident (spec core §4: root, then factor, then solution). */
export function HypothesisTreeView(props: {
  incidentId: string;
  canWrite: boolean;
  hypotheses: Hypothesis[];
  comments: IncidentComment[];
  evidences: Evidence[];
  people: NamedRef[];
  personName(id: string | null): string;
}) {
  const write = useIncidentWrite((run: () => Promise<unknown>) => run());
  const [deleting, setDeleting] = useState<Hypothesis>();
  const tree = buildHypothesisTree(props.hypotheses);
  const ctx: TreeContext = { ...props, write, askDelete: setDeleting };
  const rootType: HypothesisType = NEW_HYPOTHESIS_DEFAULTS.type;

  return (
    <section aria-labelledby="hypotheses-heading" className="flex flex-col gap-3">
      <h2 id="hypotheses-heading" className="text-lg font-semibold">
        Hypotheses
      </h2>
      {tree.length === 0 && <p className="text-sm text-gray-500">No hypotheses yet</p>}
      <ul className="flex flex-col gap-4">
        {tree.map((node) => (
          <HypothesisItem key={node.id} node={node} ctx={ctx} />
        ))}
      </ul>
      {props.canWrite && (
        <TextAdder
          label="New root hypothesis"
          button="Add root hypothesis"
          onAdd={(title) =>
            write.mutateAsync(() =>
              addHypothesis({ incidentId: props.incidentId, parentId: null, type: rootType, title }),
            )
          }
        />
      )}
      <ConfirmationDialog
        open={Boolean(deleting)}
        title="Delete hypothesis"
        description={
          deleting
            ? `Delete '${deleting.title}'? Its sub-hypotheses, comments and evidence are deleted too.`
            : undefined
        }
        isLoading={write.isPending}
        onClose={() => setDeleting(undefined)}
        onConfirm={() => {
          if (!deleting) return;
          const id = deleting.id;
          write.mutate(() => deleteHypothesis(id), {
            onSuccess: () => setDeleting(undefined),
            onError: (error) => showErrorToast(error),
          });
        }}
      />
    </section>
  );
}
