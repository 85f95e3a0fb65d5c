import clsx from 'clsx';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '../../../components/modal/modal';
import { useFeatureFlags } from '../../../lib/permissions';
import { GITOPS_OPTIONS, type GitopsOption } from '../lib/gitops';
import { GitopsForm } from './gitops-form';
import { INTEGRATIONS_PATH } from './integration-paths';

/** Where 'Add Directly' options go: each editor's create form, returning to its area. */
export const DIRECT_OPTIONS = [
  {
    label: 'Custom Topology',
    // The topology editor goes to `returnTo` after creating (settings §2.4).
    to: `/settings/topologies/new?returnTo=${encodeURIComponent(INTEGRATIONS_PATH)}`,
  },
  // The scraper editor returns to the catalog scrapers after saving (settings §2.6).
  { label: 'Catalog Scraper', to: '/catalog/scrapers/new' },
  { label: 'Log Backends', to: '/settings/log-backends', feature: 'logs' as const },
] as const;

function OptionButton({ label, onClick }: { label: string; onClick(): void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={clsx(
        'flex h-16 items-center justify-center rounded border border-gray-200 bg-white px-3 text-sm font-medium',
        'text-gray-800 hover:border-blue-400 hover:bg-blue-50',
      )}
    >
      {label}
    </button>
  );
}

export interface AddIntegrationModalProps {
  open: boolean;
  onClose(): void;
  /** The GitOps form is done: the modal closes and the list refreshes. */
  onSuccess(): void;
}

/**
 * The Add Integration wizard (settings §2.6): options under 'Add via GitOps' and 'Add Directly';
 * a GitOps option opens its form (Back returns to the options); a direct one opens its editor.
 */
export function AddIntegrationModal({ open, onClose, onSuccess }: AddIntegrationModalProps) {
  const navigate = useNavigate();
  const { isEnabled } = useFeatureFlags();
  const [chosen, setChosen] = useState<GitopsOption>();
  const close = () => {
    setChosen(undefined);
    onClose();
  };
  return (
    <Modal
      open={open}
      onClose={close}
      size="large"
      title={chosen ? `Add Integration - ${chosen.label}` : 'Add Integration'}
    >
      {chosen ? (
        <GitopsForm
          key={chosen.chart}
          option={chosen}
          onBack={() => setChosen(undefined)}
          onDone={() => {
            setChosen(undefined);
            onSuccess();
          }}
        />
      ) : (
        <div className="flex flex-col gap-6">
          <section aria-label="Add via GitOps" className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold text-gray-900">Add via GitOps</h3>
            <div className="grid grid-cols-3 gap-3">
              {GITOPS_OPTIONS.map((option) => (
                <OptionButton key={option.chart} label={option.label} onClick={() => setChosen(option)} />
              ))}
            </div>
          </section>
          <section aria-label="Add Directly" className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold text-gray-900">Add Directly</h3>
            <div className="grid grid-cols-3 gap-3">
              {DIRECT_OPTIONS.filter((option) => !('feature' in option) || isEnabled(option.feature)).map(
                (option) => (
                  <OptionButton
                    key={option.label}
                    label={option.label}
                    onClick={() => {
                      close();
                      void navigate(option.to);
                    }}
                  />
                ),
              )}
            </div>
          </section>
        </div>
      )}
    </Modal>
  );
}
