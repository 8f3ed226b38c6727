import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { focusRing } from '../button';
import { cn } from '../lib/cn';
import { useUi } from '../provider';

export interface SectionTab {
  /** Stable id: the tab's value (kept in the URL by the caller, e.g. `?tab=trips`). */
  id: string;
  label: ReactNode;
  /** Optional count or state beside the label (e.g. how many documents are expiring). */
  badge?: ReactNode;
  /** Rendered only while the tab is active, so an inactive tab fetches nothing. */
  content: ReactNode;
}

export interface SectionTabsProps {
  tabs: readonly SectionTab[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (id: string) => void;
  /** Accessible name of the tab list (e.g. "Vehicle sections"). */
  label: string;
  className?: string;
}

/**
 * Tabs between the sections of one record's page (a vehicle's trips, alerts, documents, commands,
 * route history). Radix Tabs: arrow keys follow the reading direction from UiProvider, Home/End jump,
 * and only the active panel is mounted. The list scrolls sideways on narrow screens instead of
 * wrapping or widening the page.
 */
export function SectionTabs({
  tabs,
  value,
  defaultValue,
  onValueChange,
  label,
  className,
}: SectionTabsProps) {
  const { dir } = useUi();
  const initial = value === undefined ? (defaultValue ?? tabs[0]?.id) : undefined;
  return (
    <Tabs.Root
      dir={dir}
      value={value}
      defaultValue={initial}
      onValueChange={onValueChange}
      data-slot="section-tabs"
      className={cn('flex min-w-0 flex-col', className)}
      activationMode="manual"
    >
      <Tabs.List
        aria-label={label}
        data-slot="section-tabs-list"
        className="flex gap-1 overflow-x-auto border-b border-border"
      >
        {tabs.map((tab) => (
          <Tabs.Trigger
            key={tab.id}
            value={tab.id}
            data-slot="section-tab"
            data-testid={`section-tab-${tab.id}`}
            className={cn(
              '-mb-px flex shrink-0 items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-foreground-muted',
              'hover:text-foreground data-[state=active]:border-primary data-[state=active]:text-foreground',
              focusRing,
            )}
          >
            <span>{tab.label}</span>
            {tab.badge !== undefined && tab.badge !== null ? (
              <span data-slot="section-tab-badge" className="text-xs">
                {tab.badge}
              </span>
            ) : null}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((tab) => (
        <Tabs.Content
          key={tab.id}
          value={tab.id}
          data-slot="section-tabs-content"
          data-testid={`section-panel-${tab.id}`}
          className="min-w-0 pt-3 outline-none"
        >
          {tab.content}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
