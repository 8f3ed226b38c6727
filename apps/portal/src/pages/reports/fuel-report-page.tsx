import { intlLocale } from '@fleet/core';
import { useTranslation } from 'react-i18next';
import type { FuelReportRow } from '@fleet/api-client';
import { DescriptionList, DetailSection, LineChart } from '@fleet/ui';
import { FieldValue } from '../../entities/display';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { ReportShell } from './report-shell';

type FuelEvent = FuelReportRow['refuels'][number];

/**
 * Refuels or drops of one vehicle: time in the user's zone (the portal's FieldValue, core's formatter),
 * litres, and the place as coordinates linking to OpenStreetMap (the report carries no address).
 */
function FuelEvents({
  title,
  events,
  testId,
}: {
  title: string;
  events: readonly FuelEvent[];
  testId: string;
}) {
  const { t, i18n } = useTranslation('reports');
  return (
    <section className="flex flex-col gap-1" data-testid={testId}>
      <h3 className="text-sm font-semibold text-foreground">
        {title}{' '}
        <span className="font-normal text-foreground-muted">
          ({events.length.toLocaleString(intlLocale(i18n.language))})
        </span>
      </h3>
      {events.length === 0 ? (
        <p className="text-sm text-foreground-muted">{t('fuel.noEvents')}</p>
      ) : (
        <table className="w-full text-sm">
          <thead className="text-foreground-muted">
            <tr>
              <th className="text-start font-medium">{t('fuel.time')}</th>
              <th className="text-end font-medium">{t('fuel.litres')}</th>
              <th className="text-start font-medium">{t('fuel.place')}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.at} className="border-t border-border">
                <td>
                  <FieldValue field="at" value={event.at} />
                </td>
                <td className="text-end tabular-nums">
                  {event.litres.toLocaleString(intlLocale(i18n.language), { maximumFractionDigits: 1 })}
                </td>
                <td>
                  {event.latitude === null || event.longitude === null ? (
                    '—'
                  ) : (
                    <a
                      href={`https://www.openstreetmap.org/?mlat=${event.latitude}&mlon=${event.longitude}#map=17/${event.latitude}/${event.longitude}`}
                      target="_blank"
                      rel="noopener noreferrer"
                      title={t('fuel.openMap')}
                      className="text-primary underline"
                    >
                      <bdi dir="ltr" className="tabular-nums">
                        {event.latitude.toFixed(5)}, {event.longitude.toFixed(5)}
                      </bdi>
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** reports/fuel (advanced fuel report guard): consumption, refuels, drops and the fuel level chart. */
export default function FuelReportPage() {
  const { t, i18n } = useTranslation('reports');
  const n = (v: number | null, d = 1) =>
    v === null ? '—' : v.toLocaleString(intlLocale(i18n.language), { maximumFractionDigits: d });
  // Every figure with its unit: litres, km, L/100 km, L/h.
  const u = (v: number | null, unit: string, d = 1) => (v === null ? '—' : `${n(v, d)} ${unit}`);
  return (
    <ReportShell<FuelReportRow>
      kind="fuel"
      title={t('overview.fuel')}
      renderRows={(rows) =>
        rows.map((row) => (
          <DetailSection key={row.vehicle.uuid} title={<VehiclePlate vehicle={row.vehicle} />}>
            <DescriptionList
              columns={3}
              items={[
                { id: 'used', label: t('summary.fuelUsed'), value: u(row.fuel_used_litres, t('unit.l')) },
                { id: 'distance', label: t('summary.distance'), value: u(row.distance_km, t('unit.km')) },
                {
                  id: 'per100',
                  label: t('chart.fuelConsumed'),
                  value: u(row.consumption_per_100km, `${t('unit.l')}/100 ${t('unit.km')}`),
                },
                {
                  id: 'perHour',
                  label: t('fuel.perHour'),
                  value: u(row.consumption_per_hour, `${t('unit.l')}/${t('unit.h')}`),
                },
                { id: 'points', label: t('summary.points'), value: n(row.level.length, 0) },
              ]}
            />
            <div className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
              <FuelEvents title={t('fuel.refuels')} events={row.refuels} testId="fuel-refuels" />
              <FuelEvents title={t('fuel.drops')} events={row.drops} testId="fuel-drops" />
            </div>
            <div className="mt-3">
              {/* Litres when the vehicle reports them (its calibrated fuel sensor), else percent. */}
              <LineChart
                title={row.level_unit === 'litres' ? t('chart.fuelLitres') : t('chart.fuelLevel')}
                timestamps={row.level.map((s) => Date.parse(s.at))}
                series={[
                  {
                    label: row.level_unit === 'litres' ? t('chart.fuelLitres') : t('chart.fuelLevel'),
                    values: row.level.map((s) => Number(s.value)),
                    unit: row.level_unit === 'litres' ? t('unit.l') : '%',
                  },
                ]}
              />
            </div>
          </DetailSection>
        ))
      }
    />
  );
}
