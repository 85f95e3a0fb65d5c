import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import { Modal } from '../modal/modal';
import { availableDetailTabs, errorEntries, type JobDetails, type JobDetailsTabKey } from './job-details';

/** What the modal needs of a job history row. */
export interface JobWithDetails {
  name: string;
  details: JobDetails | null;
}

function JsonBlock({ value }: { value: unknown }) {
  return (
    <pre className="max-h-[60vh] overflow-auto rounded-md bg-gray-50 p-3 text-xs text-gray-800">
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}

function ErrorsTab({ errors }: { errors: unknown }) {
  return (
    <ul className="flex max-h-[60vh] flex-col gap-2 overflow-auto text-sm">
      {errorEntries(errors).map((entry, index) => (
        <li key={entry.key ?? index} className="rounded-md bg-red-50 p-2 text-red-800">
          {entry.key && <span className="font-medium">{entry.key}: </span>}
          <span className="break-words whitespace-pre-wrap">{entry.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** 'Details for job <name>' with the tabs that have data (settings §2.1). */
export function JobDetailsModal({ job, onClose }: { job: JobWithDetails | undefined; onClose(): void }) {
  const tabs = availableDetailTabs(job?.details);
  const details = (job?.details ?? {}) as Record<JobDetailsTabKey, unknown>;
  return (
    <Modal
      open={job !== undefined && tabs.length > 0}
      onClose={onClose}
      title={`Details for job ${job?.name ?? ''}`}
      size="large"
    >
      <TabGroup>
        <TabList className="mb-3 flex gap-1 border-b border-gray-200">
          {tabs.map((tab) => (
            <Tab
              key={tab.key}
              className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm text-gray-600 data-hover:text-gray-900 data-selected:border-blue-600 data-selected:font-medium data-selected:text-blue-700 focus:outline-none"
            >
              {tab.label}
            </Tab>
          ))}
        </TabList>
        <TabPanels>
          {tabs.map((tab) => (
            <TabPanel key={tab.key}>
              {tab.key === 'errors' ? (
                <ErrorsTab errors={details.errors} />
              ) : (
                <JsonBlock value={details[tab.key]} />
              )}
            </TabPanel>
          ))}
        </TabPanels>
      </TabGroup>
    </Modal>
  );
}
