import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import clsx from 'clsx';
import type { ReactNode } from 'react';

export interface TabItem {
  /** The tab's text and the panel's accessible name. */
  label: string;
  /** A count shown in a badge after the label. */
  count?: number;
  content: ReactNode;
}

export interface TabsProps {
  tabs: readonly TabItem[];
  /** Controlled selection (index); uncontrolled from 0 without it. */
  selectedIndex?: number;
  onChange?(index: number): void;
  /** Accessible name of the tab list. */
  'aria-label': string;
  className?: string;
}

/**
 * Tabs with the keyboard of a tab list (arrows move and select, Home/End), each panel named by
 * its tab. For tabs kept in the URL, pass `selectedIndex` and `onChange`.
 */
export function Tabs({ tabs, selectedIndex, onChange, className, 'aria-label': ariaLabel }: TabsProps) {
  return (
    <TabGroup
      selectedIndex={selectedIndex}
      onChange={onChange}
      className={clsx('flex flex-col gap-3', className)}
    >
      <TabList aria-label={ariaLabel} className="flex flex-wrap gap-1 border-b border-gray-200">
        {tabs.map((tab) => (
          <Tab
            key={tab.label}
            className="-mb-px flex items-center gap-1.5 border-b-2 border-transparent px-3 py-1.5 text-sm text-gray-600 hover:text-gray-900 focus:outline-none data-[focus]:bg-blue-50 data-[selected]:border-blue-600 data-[selected]:text-blue-700"
          >
            {tab.label}
            {tab.count !== undefined && (
              <span className="rounded-full bg-gray-100 px-1.5 text-xs text-gray-700">{tab.count}</span>
            )}
          </Tab>
        ))}
      </TabList>
      <TabPanels>
        {tabs.map((tab) => (
          <TabPanel key={tab.label}>{tab.content}</TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
