import type { ResourceSearchKind } from '@opsdeck/contracts';
import clsx from 'clsx';
import { useState } from 'react';
import {
  ResourceSelector,
  type ResourceOption,
} from '../../../components/resource-selector/resource-selector';
import { resourceSearchOf } from '../../../components/resource-selector/search-resources';
import { showErrorToast } from '../../../components/toasts/toasts';
import { addResourceEvidence, type ResourceEvidenceKind } from '../api/incident-mutations';

const KINDS: readonly { kind: ResourceEvidenceKind; search: ResourceSearchKind; label: string }[] = [
  { kind: 'check', search: 'checks', label: 'Check' },
  { kind: 'config', search: 'configs', label: 'Config' },
  { kind: 'component', search: 'components', label: 'Component' },
];

/**
 * Links a check, config or component to a hypothesis as evidence, picked with the resource
 * selector (core §5) over POST /resources/search. Picking one saves it at once.
 */
export function ResourceEvidenceAdder({
  hypothesisId,
  onAdd,
}: {
  hypothesisId: string;
  /** Runs the write (the page's incident write, which refreshes the incident). */
  onAdd(write: () => Promise<unknown>): Promise<unknown>;
}) {
  const [kindIndex, setKindIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const { kind, search, label } = KINDS[kindIndex] ?? KINDS[0]!;
  const pick = (option: ResourceOption | null) => {
    if (!option) return;
    setBusy(true);
    onAdd(() => addResourceEvidence({ hypothesisId, kind, id: option.id, name: option.name }))
      .catch((error: unknown) => showErrorToast(error))
      .finally(() => setBusy(false));
  };
  return (
    <div className="flex flex-col gap-1">
      <div role="radiogroup" aria-label="Evidence resource kind" className="flex gap-1">
        {KINDS.map((entry, index) => (
          <button
            key={entry.kind}
            type="button"
            role="radio"
            aria-checked={index === kindIndex}
            onClick={() => setKindIndex(index)}
            className={clsx(
              'rounded-full border px-2 py-0.5 text-xs',
              index === kindIndex
                ? 'border-blue-600 bg-blue-50 text-blue-700'
                : 'border-gray-300 bg-white text-gray-600 hover:bg-gray-50',
            )}
          >
            {entry.label}
          </button>
        ))}
      </div>
      <ResourceSelector
        key={kind}
        label={`Link a ${label.toLowerCase()}`}
        search={resourceSearchOf(search)}
        value={null}
        onChange={pick}
        disabled={busy}
      />
    </div>
  );
}
