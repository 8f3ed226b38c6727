import { formatDate, type StatusTone, intlLocale } from '@fleet/core';
import { DetailStatusBadge } from '@fleet/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatusLabel } from './use-status-label';
import { VehiclePlate, type PlateFields } from './vehicle-plate';
import { VehicleRef } from './vehicle-ref';
import { RecordRef, referenceEntity } from './record-ref';
import { PlaceAddress } from '../map/address';

/** Option groups of the fields namespace by field name (and entity when the same name differs). */
export function optionGroup(field: string, segment?: string): string | null {
  if (field === 'type') {
    if (segment === 'vehicles') return 'vehicleType';
    if (segment === 'devices') return 'deviceType';
    if (segment === 'schools') return 'schoolType';
    if (segment === 'scheduled-trips') return 'tripType';
    return null;
  }
  const groups: Record<string, string> = {
    gender: 'gender',
    education_level: 'educationLevel',
    user_type: 'userType',
    shape: 'shape',
    tracking_rules: 'trackingRule',
    relationship: 'relationship',
    message_channel: 'messageChannel',
    current_status: 'connection',
    event: 'eventKind',
  };
  if (field === 'language' && segment === 'guardians') return 'guardianLanguage';
  return groups[field] ?? null;
}

export function useTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A date per locale and zone (core formatter); the raw text when it cannot be read. */
function safeDate(value: string, format: 'long' | 'short', locale: string, timeZone: string): string {
  try {
    return formatDate(value, format, { locale, timeZone });
  } catch {
    return value;
  }
}

/** Translated label of a field. */
export function useFieldLabel(): (field: string) => string {
  const { t } = useTranslation('fields');
  return (field) => t(`label.${field}`, { defaultValue: field.replace(/_/g, ' ') });
}

/** Entity and trip statuses -> the kit's semantic tones (Active -> live, Expired -> offline ...). */
export function entityStatusTone(status: string): StatusTone {
  if (status === 'active' || status === 'completed' || status === 'online') return 'live';
  if (
    status === 'expired' ||
    status === 'cancelled' ||
    status === 'missed' ||
    status === 'unplugged' ||
    status === 'offline'
  )
    return 'offline';
  if (status === 'maintenance' || status === 'delayed' || status === 'pending' || status === 'started')
    return 'idle';
  if (status === 'inactive') return 'inactive';
  return 'neutral';
}

/** The DetailLayout `status` of a record (label and tone), or undefined when it has none. */
export function useDetailStatus(): (status: unknown) => { label: string; tone: StatusTone } | undefined {
  const labelOf = useStatusLabel();
  return (status) =>
    typeof status === 'string' ? { label: labelOf(status), tone: entityStatusTone(status) } : undefined;
}

/** Status badge of list cells: the kit's DetailStatusBadge. */
export function StatusBadge({ status }: { status: string }) {
  const labelOf = useStatusLabel();
  return <DetailStatusBadge tone={entityStatusTone(status)}>{labelOf(status)}</DetailStatusBadge>;
}

/**
 * A geofence's shape in words (the map on the details page draws it): "Circle, radius 250 m" or
 * "Polygon, 6 points", never the stored JSON.
 */
function GeometrySummary({ geometry }: { geometry: object }) {
  const { t, i18n } = useTranslation('fields');
  const g = geometry as { shape?: unknown; radius?: unknown; points?: unknown };
  const shape = typeof g.shape === 'string' ? g.shape : '';
  const name = t(`option.shape.${shape}`, { defaultValue: shape });
  if (typeof g.radius === 'number')
    return (
      <span data-testid="geometry-summary">
        {t('geometry.circle', {
          shape: name,
          radius: Math.round(g.radius).toLocaleString(intlLocale(i18n.language)),
        })}
      </span>
    );
  const count = Array.isArray(g.points) ? g.points.length : 0;
  return (
    <span data-testid="geometry-summary">
      {t('geometry.points', { shape: name, points: count.toLocaleString(intlLocale(i18n.language)) })}
    </span>
  );
}

/** One value of a record, formatted for its field (dates per locale, enums translated, LTR data isolated). */
export function FieldValue({
  field,
  value,
  segment,
}: {
  field: string;
  value: unknown;
  segment?: string;
}): ReactNode {
  const { t, i18n } = useTranslation('common');
  const ft = useTranslation('fields').t;
  const timeZone = useTimeZone();
  if (value === null || value === undefined || value === '')
    return <span className="text-foreground-muted">{t('field.none')}</span>;
  if (field === 'status') return <StatusBadge status={String(value)} />;
  if (field === 'current_status')
    return (
      <DetailStatusBadge tone={entityStatusTone(String(value))}>
        {ft(`option.connection.${String(value)}`, { defaultValue: String(value) })}
      </DetailStatusBadge>
    );
  if (field === 'vehicle_uuid' && typeof value === 'string') return <VehicleRef uuid={value} />;
  const reference = referenceEntity(field);
  if (reference && typeof value === 'string') return <RecordRef entity={reference} uuid={value} />;
  if (field === 'geometry' && typeof value === 'object') return <GeometrySummary geometry={value} />;
  if (typeof value === 'boolean') return t(value ? 'field.yes' : 'field.no');
  const group = optionGroup(field, segment);
  if (group && typeof value === 'string') return ft(`option.${group}.${value}`, { defaultValue: value });
  if (Array.isArray(value)) {
    if (group)
      return value.map((v) => ft(`option.${group}.${String(v)}`, { defaultValue: String(v) })).join(', ');
    return String(value.length);
  }
  if (typeof value === 'object' && field === 'vehicle' && 'license_plate_number' in value) {
    return <VehiclePlate vehicle={value as PlateFields} />;
  }
  if (typeof value === 'object') {
    const place = value as { latitude?: number; longitude?: number; address?: string | null; name?: string };
    if (typeof place.latitude === 'number' && typeof place.longitude === 'number') {
      return (
        <span>
          {place.address ? (
            `${place.address} `
          ) : (
            <PlaceAddress lat={place.latitude} lng={place.longitude} className="me-1" />
          )}
          <bdi dir="ltr" className="tabular-nums">
            {place.latitude.toFixed(5)}, {place.longitude.toFixed(5)}
          </bdi>
        </span>
      );
    }
    if (typeof place.name === 'string') return place.name;
    return <code className="text-xs">{JSON.stringify(value)}</code>;
  }
  if (field === 'color' && typeof value === 'string') {
    return (
      <span className="inline-flex items-center gap-1">
        <span
          className="inline-block size-3 rounded-full border border-border"
          style={{ background: value }}
        />
        <bdi dir="ltr">{value}</bdi>
      </span>
    );
  }
  if (typeof value === 'string' && (ISO_DATE_TIME.test(value) || /^\d{4}-\d{2}-\d{2}$/.test(value))) {
    return (
      <bdi dir="ltr">
        {safeDate(value, ISO_DATE_TIME.test(value) ? 'long' : 'short', i18n.language, timeZone)}
      </bdi>
    );
  }
  if (typeof value === 'number' && /year|_number$|_no$/.test(field))
    return <bdi dir="ltr">{String(value)}</bdi>;
  if (typeof value === 'number')
    return (
      <bdi dir="ltr" className="tabular-nums">
        {value.toLocaleString(intlLocale(i18n.language))}
      </bdi>
    );
  if (/imei|phone|number|plate|sim|code|_no$|email|rfid|national_id/.test(field))
    return <bdi dir="ltr">{String(value)}</bdi>;
  return String(value);
}
