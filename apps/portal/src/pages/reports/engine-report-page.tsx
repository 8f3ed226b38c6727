import { intlLocale } from '@fleet/core';
import { useTranslation } from 'react-i18next';
import type { EngineReportRow } from '@fleet/api-client';
import { VehiclePlate } from '../../entities/vehicle-plate';
import { DescriptionList, DetailSection, LineChart } from '@fleet/ui';
import { ReportShell } from './report-shell';

/** reports/engine (engine device guard): engine hours, RPM and temperature charts. */
export default function EngineReportPage() {
  const { t, i18n } = useTranslation('reports');
  const n = (v: number | null, d = 1) =>
    v === null ? '—' : v.toLocaleString(intlLocale(i18n.language), { maximumFractionDigits: d });
  // Every figure with its unit (issue 15): h, rpm, °C in the reader's language.
  const u = (v: number | null, unit: string, d = 1) => (v === null ? '—' : `${n(v, d)} ${unit}`);
  return (
    <ReportShell<EngineReportRow>
      kind="engine"
      title={t('overview.engine')}
      renderRows={(rows) =>
        rows.map((row) => (
          <DetailSection key={row.vehicle.uuid} title={<VehiclePlate vehicle={row.vehicle} />}>
            <DescriptionList
              columns={3}
              items={[
                { id: 'hours', label: t('summary.engineOn'), value: u(row.engine_hours, t('unit.h')) },
                { id: 'rpm', label: t('chart.rpm'), value: u(row.max_rpm, t('unit.rpm'), 0) },
                { id: 'temp', label: t('chart.temperature'), value: u(row.max_temperature, t('unit.degC')) },
              ]}
            />
            <div className="mt-3 grid grid-cols-1 gap-3 lg:grid-cols-2">
              <LineChart
                title={t('chart.rpm')}
                timestamps={row.rpm.map((s) => Date.parse(s.at))}
                series={[{ label: t('chart.rpm'), values: row.rpm.map((s) => Number(s.value)), unit: 'rpm' }]}
              />
              <LineChart
                title={t('chart.temperature')}
                timestamps={row.temperature.map((s) => Date.parse(s.at))}
                series={[
                  {
                    label: t('chart.temperature'),
                    values: row.temperature.map((s) => Number(s.value)),
                    unit: '°C',
                    tone: 'warning',
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
