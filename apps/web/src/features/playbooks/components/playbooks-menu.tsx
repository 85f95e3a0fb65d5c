import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { ChevronDown, PlayCircle } from 'lucide-react';
import { useState } from 'react';
import { buttonClasses } from '../../../components/button/button';
import type { PlaybooksTarget } from '../../../components/playbooks-action/playbooks-action';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { useCan } from '../../../lib/permissions';
import { usePlaybooksFor, type PlaybookTarget } from '../api/playbooks';
import { RunPlaybookDialog, type PresetResource, type RunnablePlaybook } from './run-playbook-dialog';

const itemClass =
  'flex w-full items-center gap-2 rounded-md px-3 py-1.5 text-left text-sm text-gray-700 data-focus:bg-gray-100';

/**
 * Settings §2.3: the playbooks dropdown on a check, component or config. It lists the playbooks
 * that run on the resource and opens the run dialog; hidden when the list is empty, loading or
 * failed, and without write on playbook_runs.
 */
export function PlaybooksMenu({ resource }: { resource: PlaybooksTarget & PresetResource }) {
  const canRun = useCan('playbook_runs', 'write');
  const target: PlaybookTarget = {
    [resource.kind === 'check' ? 'check_id' : resource.kind === 'config' ? 'config_id' : 'component_id']:
      resource.id,
  };
  const list = usePlaybooksFor(canRun ? target : {});
  const [chosen, setChosen] = useState<RunnablePlaybook>();
  if (!canRun || !list.isSuccess || list.data.length === 0) return null;
  return (
    <>
      <Menu as="div" className="relative">
        <MenuButton className={buttonClasses({ variant: 'secondary' })}>
          <PlayCircle className="size-4" aria-hidden />
          Playbooks
          <ChevronDown className="size-4" aria-hidden />
        </MenuButton>
        <MenuItems
          anchor="bottom end"
          className="z-[60] mt-2 w-64 rounded-lg border border-gray-200 bg-white p-1 shadow-xl focus:outline-none"
        >
          {list.data.map((playbook) => (
            <MenuItem key={playbook.id}>
              <button type="button" className={itemClass} onClick={() => setChosen(playbook)}>
                {playbook.icon && <ResourceIcon icon={playbook.icon} />}
                {playbook.title || playbook.name}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
      {chosen && (
        <RunPlaybookDialog playbook={chosen} preset={resource} onClose={() => setChosen(undefined)} />
      )}
    </>
  );
}
