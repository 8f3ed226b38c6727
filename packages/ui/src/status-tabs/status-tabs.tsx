import * as Tabs from '@radix-ui/react-tabs';
import { statusTabs, statusTone, type StatusTab, type StatusTone, intlLocale } from '@fleet/core';
import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { focusRing } from '../button';
import type { UiMessages } from '../i18n';
import { cn } from '../lib/cn';
import { useLabels, useUi } from '../provider';

export { statusTabs };
export type { StatusTab };

const labelKey: Record<StatusTab, keyof UiMessages> = {
  all: 'statusAll',
  live: 'statusLive',
  idle: 'statusIdle',
  offline: 'statusOffline',
  inactive: 'statusInactive',
  'no-data': 'statusNoData',
};

/** Tone -> classes for the count badge and the active indicator (semantic tokens only). */
export const statusToneRecipe = cva('', {
  variants: {
    tone: {
      live: 'bg-tone-live-soft text-tone-live',
      idle: 'bg-tone-idle-soft text-tone-idle',
      offline: 'bg-tone-offline-soft text-tone-offline',
      inactive: 'bg-tone-inactive-soft text-tone-inactive',
      noData: 'bg-tone-no-data-soft text-tone-no-data',
      neutral: 'bg-tone-neutral-soft text-tone-neutral',
    } satisfies Record<StatusTone, string>,
  },
});

const indicator: Record<StatusTone, string> = {
  live: 'data-[state=active]:border-tone-live',
  idle: 'data-[state=active]:border-tone-idle',
  offline: 'data-[state=active]:border-tone-offline',
  inactive: 'data-[state=active]:border-tone-inactive',
  noData: 'data-[state=active]:border-tone-no-data',
  neutral: 'data-[state=active]:border-tone-neutral',
};

export interface StatusTabsProps {
  /** Vehicle count per tab; a missing count shows no badge. */
  counts?: Partial<Record<StatusTab, number>>;
  value?: StatusTab;
  defaultValue?: StatusTab;
  onValueChange?: (value: StatusTab) => void;
  /** Content of the active tab (the list or the map). */
  children?: ReactNode;
  className?: string;
  labels?: Partial<
    Pick<
      UiMessages,
      | 'statusAll'
      | 'statusLive'
      | 'statusIdle'
      | 'statusOffline'
      | 'statusInactive'
      | 'statusNoData'
      | 'statusTabsLabel'
    >
  >;
}

/**
 * Live-view status tabs (all, live, idle, offline, inactive, no-data) on Radix Tabs. Tones come
 * from @fleet/core `statusTone`; arrow keys follow the reading direction (Radix reads the
 * direction from UiProvider), so ArrowLeft moves forward in Arabic.
 */
export function StatusTabs({
  counts,
  value,
  defaultValue = 'all',
  onValueChange,
  children,
  className,
  labels,
}: StatusTabsProps) {
  const { dir, localeTag } = useUi();
  const text = useLabels(
    [
      'statusAll',
      'statusLive',
      'statusIdle',
      'statusOffline',
      'statusInactive',
      'statusNoData',
      'statusTabsLabel',
    ],
    labels,
  );
  const numberFormat = new Intl.NumberFormat(
    intlLocale(localeTag).startsWith('ar') ? 'ar-u-nu-latn' : localeTag,
  );
  return (
    <Tabs.Root
      dir={dir}
      value={value}
      defaultValue={value === undefined ? defaultValue : undefined}
      onValueChange={(v) => onValueChange?.(v as StatusTab)}
      data-slot="status-tabs"
      // min-w-0: in a flex row (tabs beside a button) the list shrinks and scrolls instead of being cut.
      className={cn('flex min-w-0 flex-col', className)}
      activationMode="automatic"
    >
      <Tabs.List
        aria-label={text.statusTabsLabel}
        data-slot="status-tabs-list"
        className="flex gap-1 overflow-x-auto border-b border-border"
      >
        {statusTabs.map((tab) => {
          const tone = statusTone(tab);
          const count = counts?.[tab];
          return (
            <Tabs.Trigger
              key={tab}
              value={tab}
              data-slot="status-tab"
              data-tone={tone}
              className={cn(
                '-mb-px flex shrink-0 items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-foreground-muted',
                'hover:text-foreground data-[state=active]:text-foreground',
                indicator[tone],
                focusRing,
              )}
            >
              <span>{text[labelKey[tab] as keyof typeof text]}</span>
              {count !== undefined ? (
                <span
                  data-slot="status-tab-count"
                  data-tone={tone}
                  className={cn(
                    'min-w-6 rounded-full px-1.5 text-center text-xs tabular-nums',
                    statusToneRecipe({ tone }),
                  )}
                >
                  {numberFormat.format(count)}
                </span>
              ) : null}
            </Tabs.Trigger>
          );
        })}
      </Tabs.List>
      {statusTabs.map((tab) => (
        <Tabs.Content key={tab} value={tab} data-slot="status-tabs-content" className="pt-3 outline-none">
          {children}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
