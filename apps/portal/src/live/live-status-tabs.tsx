import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageKey, StatusTab } from '@fleet/core';
import { Button, StatusTabs } from '@fleet/ui';
import { useCoreText } from '../i18n/core-text';

/**
 * The live view's status tabs: the kit's StatusTabs (all, live, idle, offline, inactive, no-data with
 * their counts) with the spec's status names from core, plus, on the map, the camera footage view as
 * a toggle beside them. The kit's tabs are the vehicle statuses only, so the camera is not a seventh
 * tab but a pressed/unpressed button; the status tab keeps filtering the vehicles the camera view
 * lists. The map and list are rendered by the page (not as tab content) so a tab change never
 * remounts the map.
 */
export const LiveStatusTabs = memo(function LiveStatusTabs({
  value,
  counts,
  onValueChange,
  camera,
  onCameraChange,
}: {
  value: StatusTab;
  counts: Record<StatusTab, number>;
  onValueChange: (value: StatusTab) => void;
  /** Camera view state; leave undefined on pages without the camera view. */
  camera?: boolean;
  onCameraChange?: (on: boolean) => void;
}) {
  const { t } = useTranslation('live');
  const core = useCoreText();
  const label = (s: StatusTab) => core(`status.${s}` as MessageKey);
  return (
    <div className="flex items-end gap-2">
      <StatusTabs
        className="min-w-0 flex-1 [&_[data-slot=status-tabs-content]]:hidden"
        value={value}
        counts={counts}
        onValueChange={onValueChange}
        labels={{
          statusAll: label('all'),
          statusLive: label('live'),
          statusIdle: label('idle'),
          statusOffline: label('offline'),
          statusInactive: label('inactive'),
          statusNoData: label('no-data'),
        }}
      />
      {camera !== undefined && onCameraChange ? (
        <Button
          variant={camera ? 'primary' : 'outline'}
          size="sm"
          className="mb-1 shrink-0"
          aria-pressed={camera}
          data-testid="camera-toggle"
          onClick={() => onCameraChange(!camera)}
        >
          {t('tab.camera')}
        </Button>
      ) : null}
    </div>
  );
});
