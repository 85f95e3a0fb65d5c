import clsx from 'clsx';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { enumParam, useSearchParam } from '../../lib/url-state/search-param';
import { Button } from '../button/button';
import { ConfirmationDialog } from '../confirmation-dialog/confirmation-dialog';

const TABS = ['spec', 'members', 'job-history'] as const;
export type ResourceEditorTab = (typeof TABS)[number];
type Tab = ResourceEditorTab;

/** The editor's selected tab, from `?tab=` (say, to show Job History after Run Now). */
export function useResourceEditorTab() {
  return useSearchParam<Tab>('tab', enumParam(TABS), 'spec');
}

const TAB_LABELS: Record<Tab, string> = { spec: 'Spec', members: 'Members', 'job-history': 'Job History' };

/** One underlined tab of a tablist (the editor's Spec / Job History, a spec's Form / Code). */
export function EditorTab({
  selected,
  onClick,
  children,
}: {
  selected: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      onClick={onClick}
      className={clsx(
        '-mb-px border-b-2 px-3 py-1.5 text-sm',
        selected ? 'border-blue-600 text-blue-700' : 'border-transparent text-gray-600 hover:text-gray-900',
      )}
    >
      {children}
    </button>
  );
}

export type SpecView = 'form' | 'code';

/** The Form / Code switch of a spec that has a form (settings §4 "Spec editor"). */
export function SpecViewTabs({ view, onChange }: { view: SpecView; onChange(view: SpecView): void }) {
  return (
    <div role="tablist" aria-label="Spec editor" className="flex gap-1">
      <EditorTab selected={view === 'form'} onClick={() => onChange('form')}>
        Form
      </EditorTab>
      <EditorTab selected={view === 'code'} onClick={() => onChange('code')}>
        Code
      </EditorTab>
    </div>
  );
}

export interface ResourceEditorDelete {
  /** 'Delete {name}?' */
  title: string;
  description: string;
  isLoading: boolean;
  /** Called on confirm; `close` dismisses the dialog (say on failure; success usually navigates away). */
  onConfirm(close: () => void): void;
}

export interface ResourceEditorProps {
  /** The list the resource belongs to: the breadcrumb's link and where Cancel returns. */
  list: { label: string; path: string };
  /** The saved resource's name; undefined while creating one. */
  name: string | undefined;
  /** Breadcrumb text while creating ('New scraper'). */
  newLabel: string;
  /** Accessible name of the Spec / Job History tablist ('Scraper'). */
  tabsLabel: string;
  /**
   * The Job History tab of a saved resource. Absent while creating: there are no tabs then.
   * The selected tab is in the URL (`?tab=job-history`).
   */
  jobHistory?: ReactNode;
  /** The Members tab of a saved team (settings §2.4: "Members (teams only)"), between Spec and Job History. */
  members?: ReactNode;
  /** The file that owns the resource (`source`): a note says it is read-only here. */
  managedBy?: { source: string; noun: string };
  /** The Spec tab: fields, spec editor, problems. */
  children: ReactNode;
  /** Save (new) / Update (saved). Absent: no such button (read-only, or nothing to save yet). */
  save?: {
    pending: boolean;
    /** Submits the form with this id (type="submit"); otherwise `onSave` is called. */
    form?: string;
    onSave?(): void;
  };
  /** More buttons after Update (Run Now). */
  extraActions?: ReactNode;
  /** Delete with its confirmation, offered for a saved resource the user may change. */
  remove?: ResourceEditorDelete;
}

/**
 * The shell every resource editor shares (settings §2.4: health checks, scrapers, incident
 * rules): breadcrumb back to the list, Spec and Job History tabs for a saved resource, the
 * read-only note of a file-owned one, and Save/Update, extra actions, Cancel and Delete with
 * its confirmation. The Spec tab's content is the caller's.
 */
export function ResourceEditor({
  list,
  name,
  newLabel,
  tabsLabel,
  jobHistory,
  members,
  managedBy,
  children,
  save,
  extraActions,
  remove,
}: ResourceEditorProps) {
  const navigate = useNavigate();
  const saved = name !== undefined;
  const [tab, setTab] = useResourceEditorTab();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const tabs = saved && (jobHistory !== undefined || members !== undefined);
  const available = TABS.filter(
    (value) =>
      value === 'spec' ||
      (value === 'members' && members !== undefined) ||
      (value === 'job-history' && jobHistory !== undefined),
  );
  const showJobHistory = tabs && tab === 'job-history' && jobHistory !== undefined;
  const showMembers = tabs && tab === 'members' && members !== undefined;

  return (
    <div className="flex flex-col gap-4">
      <nav aria-label="Breadcrumb" className="flex items-center gap-1 text-sm">
        <Link to={list.path} className="text-blue-700 hover:underline">
          {list.label}
        </Link>
        <span aria-hidden className="text-gray-400">
          /
        </span>
        <span className="text-gray-900">{name ?? newLabel}</span>
      </nav>
      {tabs && (
        <div role="tablist" aria-label={tabsLabel} className="flex gap-1 border-b border-gray-200">
          {available.map((value) => (
            <EditorTab key={value} selected={tab === value} onClick={() => void setTab(value)}>
              {TAB_LABELS[value]}
            </EditorTab>
          ))}
        </div>
      )}
      {showJobHistory ? (
        <section role="tabpanel" aria-label="Job History" className="flex flex-col gap-2">
          {jobHistory}
        </section>
      ) : showMembers ? (
        <section role="tabpanel" aria-label="Members" className="flex flex-col gap-2">
          {members}
        </section>
      ) : (
        <section role="tabpanel" aria-label="Spec" className="flex flex-col gap-3">
          {managedBy && (
            <p
              role="note"
              className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            >
              This {managedBy.noun} is managed by <span className="font-mono">{managedBy.source}</span>, so it
              is read-only here. Change it in that file.
            </p>
          )}
          {children}
          <div className="flex flex-wrap gap-2">
            {save && (
              <Button
                variant="primary"
                type={save.form ? 'submit' : 'button'}
                form={save.form}
                onClick={save.form ? undefined : save.onSave}
                disabled={save.pending}
              >
                {saved ? (save.pending ? 'Updating' : 'Update') : save.pending ? 'Saving' : 'Save'}
              </Button>
            )}
            {saved && extraActions}
            {saved && <Button onClick={() => void navigate(list.path)}>Cancel</Button>}
            {saved && remove && (
              <Button variant="danger" className="ml-auto" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            )}
          </div>
        </section>
      )}
      {saved && remove && (
        <ConfirmationDialog
          open={confirmDelete}
          title={remove.title}
          description={remove.description}
          isLoading={remove.isLoading}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() => remove.onConfirm(() => setConfirmDelete(false))}
        />
      )}
    </div>
  );
}
