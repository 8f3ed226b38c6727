import { intlLocale } from '@fleet/core';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { FieldValue } from '../../entities/display';

/** One column of a report table; `numeric` columns align to the end and use tabular figures. */
export interface ReportColumn<R> {
  readonly id: string;
  readonly label: string;
  readonly value: (row: R) => ReactNode;
  readonly numeric?: boolean;
}

/**
 * A report's rows as a plain, scrollable table (logical alignment, so Arabic reads right to left).
 * Report pages show at most a page of 50 rows, so no virtualisation is needed.
 */
export function ReportTable<R>({
  columns,
  rows,
  rowKey,
}: {
  columns: readonly ReportColumn<R>[];
  rows: readonly R[];
  rowKey: (row: R, index: number) => string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-surface" data-testid="report-table">
      <table className="w-full min-w-max text-sm">
        <thead className="bg-surface-sunken text-foreground-muted">
          <tr>
            {columns.map((c) => (
              <th
                key={c.id}
                scope="col"
                className={`px-3 py-2 font-medium ${c.numeric ? 'text-end' : 'text-start'}`}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={rowKey(row, i)} className="border-t border-border">
              {columns.map((c) => (
                <td
                  key={c.id}
                  className={`px-3 py-2 align-top ${c.numeric ? 'text-end tabular-nums' : 'text-start'}`}
                >
                  {c.value(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Figures with their units in the user's language: km, km/h, L, h, AED, %. Durations in seconds read
 * as "1 h 05 min". Null is "—".
 */
export function useFigures() {
  const { t, i18n } = useTranslation('reports');
  const num = (v: number, d = 1) => v.toLocaleString(intlLocale(i18n.language), { maximumFractionDigits: d });
  const unit = (key: 'km' | 'kmh' | 'l' | 'h' | 'pct' | 'min' | 'm') => t(`unit.${key}`);
  const withUnit = (v: number | null | undefined, u: string, d = 1) =>
    v === null || v === undefined ? '—' : `${num(v, d)} ${u}`;
  return {
    num,
    km: (v: number | null | undefined) => withUnit(v, unit('km'), 1),
    kmh: (v: number | null | undefined) => withUnit(v, unit('kmh'), 0),
    litres: (v: number | null | undefined) => withUnit(v, unit('l'), 1),
    hours: (v: number | null | undefined) => withUnit(v, unit('h'), 1),
    pct: (v: number | null | undefined) =>
      v === null || v === undefined ? '—' : `${num(v, 1)}${unit('pct')}`,
    money: (v: number | null | undefined, currency: string) =>
      v === null || v === undefined
        ? '—'
        : new Intl.NumberFormat(intlLocale(i18n.language), { style: 'currency', currency }).format(v),
    duration: (seconds: number | null | undefined) => {
      if (seconds === null || seconds === undefined) return '—';
      const h = Math.floor(seconds / 3600);
      const m = Math.round((seconds % 3600) / 60);
      return h > 0
        ? `${num(h, 0)} ${unit('h')} ${String(m).padStart(2, '0')} ${unit('min')}`
        : `${num(m, 0)} ${unit('min')}`;
    },
  };
}

/** A time in the user's zone and language. */
export function Time({ at }: { at: string | null }) {
  return <FieldValue field="at" value={at} />;
}

/** Coordinates linking to OpenStreetMap (reports carry no address). */
/**
 * A place of a report row: its address when the server has one (in the reader's language, from the
 * configured geocoder) above the coordinates, which always stay and link to the map.
 */
export function Place({
  latitude,
  longitude,
  address,
}: {
  latitude: number | null;
  longitude: number | null;
  address?: string | null | undefined;
}) {
  const { t } = useTranslation('reports');
  if (latitude === null || longitude === null) return <>—</>;
  const link = (
    <a
      href={`https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`}
      target="_blank"
      rel="noopener noreferrer"
      title={t('fuel.openMap')}
      className="text-primary underline"
    >
      <bdi dir="ltr" className="tabular-nums">
        {latitude.toFixed(5)}, {longitude.toFixed(5)}
      </bdi>
    </a>
  );
  if (!address) return link;
  return (
    <span className="flex flex-col gap-0.5">
      <span data-testid="place-address">{address}</span>
      <span className="text-xs">{link}</span>
    </span>
  );
}
