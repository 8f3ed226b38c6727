import { statusTone, type VehicleStatus } from '@fleet/core';
import { cva } from 'class-variance-authority';
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { PlateCard, type PlateCardProps } from '../plate-card';
import { useUi } from '../provider';

export const vehiclePopupVariants = cva('flex min-w-44 flex-col gap-2 text-sm text-foreground');

const statusLabelKey = {
  live: 'statusLive',
  idle: 'statusIdle',
  offline: 'statusOffline',
  inactive: 'statusInactive',
  'no-data': 'statusNoData',
} as const satisfies Record<VehicleStatus, string>;

const toneClass = {
  live: 'bg-tone-live-soft text-tone-live',
  idle: 'bg-tone-idle-soft text-tone-idle',
  offline: 'bg-tone-offline-soft text-tone-offline',
  inactive: 'bg-tone-inactive-soft text-tone-inactive',
  noData: 'bg-tone-no-data-soft text-tone-no-data',
  neutral: 'bg-tone-neutral-soft text-tone-neutral',
} as const;

export interface VehiclePopupProps {
  /** The vehicle's plate (license_plate_state_code, _category, _number). */
  plate: Pick<PlateCardProps, 'stateCode' | 'category' | 'number'>;
  status?: VehicleStatus;
  /** Speed in km/h; shown with the unit, LTR-isolated. */
  speed?: number | null;
  /** Already formatted time of the last location (the caller owns date formatting). */
  lastUpdate?: string;
  /** Extra content (driver, actions ...). */
  children?: ReactNode;
  className?: string;
}

/** Content for the selected-vehicle popup of {@link VehicleLayer}: PlateCard, status, speed and time. */
export function VehiclePopup({ plate, status, speed, lastUpdate, children, className }: VehiclePopupProps) {
  const { messages } = useUi();
  const tone = status ? statusTone(status) : 'neutral';
  return (
    <div data-slot="vehicle-popup-content" data-tone={tone} className={cn(vehiclePopupVariants(), className)}>
      <PlateCard
        size="md"
        stateCode={plate.stateCode}
        category={plate.category ?? null}
        number={plate.number}
      />
      <div className="flex flex-wrap items-center gap-2">
        {status ? (
          <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-medium', toneClass[tone])}>
            {messages[statusLabelKey[status]]}
          </span>
        ) : null}
        {typeof speed === 'number' && Number.isFinite(speed) ? (
          <bdi dir="ltr" className="tabular-nums">
            {Math.round(speed)} km/h
          </bdi>
        ) : null}
        {lastUpdate ? (
          <bdi dir="ltr" className="text-foreground-muted tabular-nums">
            {lastUpdate}
          </bdi>
        ) : null}
      </div>
      {children}
    </div>
  );
}
