import { intlLocale } from '@fleet/core';
import { useTranslation } from 'react-i18next';
import type { WheelReportRow } from '@fleet/api-client';
import { CategoryBarChart, DetailSection } from '@fleet/ui';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { ReportShell } from './report-shell';

/** reports/wheel (wheel dashboard guard): tyre pressure and temperature per position. */
export default function WheelReportPage() {
  const { t, i18n } = useTranslation('reports');
  const n = (v: number | null) =>
    v === null ? '—' : v.toLocaleString(intlLocale(i18n.language), { maximumFractionDigits: 1 });
  return (
    <ReportShell<WheelReportRow>
      kind="wheel"
      title={t('overview.wheel')}
      renderRows={(rows) =>
        rows.map((row) => (
          <DetailSection key={row.vehicle.uuid} title={<VehiclePlate vehicle={row.vehicle} />}>
            <table className="w-full text-sm">
              <thead className="text-foreground-muted">
                <tr>
                  <th className="text-start font-medium">{t('wheel.position')}</th>
                  <th className="text-end font-medium">{t('wheel.pressure')}</th>
                  <th className="text-end font-medium">{t('wheel.temperature')}</th>
                </tr>
              </thead>
              <tbody>
                {row.tyres.map((tyre) => (
                  <tr key={tyre.position} className="border-t border-border">
                    <td>
                      <bdi dir="ltr">{tyre.position}</bdi>
                    </td>
                    <td className="text-end tabular-nums">{n(tyre.pressure_kpa)}</td>
                    <td className="text-end tabular-nums">{n(tyre.temperature_c)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="mt-3">
              <CategoryBarChart
                title={t('wheel.pressure')}
                data={row.tyres.map((tyre) => ({
                  label: <bdi dir="ltr">{tyre.position}</bdi>,
                  value: tyre.pressure_kpa,
                }))}
              />
            </div>
          </DetailSection>
        ))
      }
    />
  );
}
