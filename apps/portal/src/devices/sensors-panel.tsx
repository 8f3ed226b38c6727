import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  inputElementCatalogue,
  ioElementCatalogue,
  parseCalibrationCsv,
  type LocalizedName,
  intlLocale,
} from '@fleet/core';
import { Button, DetailSection, FormField, InlineAlert, NativeSelect, Textarea } from '@fleet/ui';
import { useServices } from '../state/app-context';

const IGNITION_IOS = [239, 1, 2, 3, 4] as const;
const ODOMETER_IOS = [16, 87] as const;
const FUEL_IOS = [9, 10, 11, 245, 89] as const;

function ioName(id: number, lang: string): string {
  const name: LocalizedName | undefined = (ioElementCatalogue[id] ?? inputElementCatalogue[id])?.name;
  const text = name ? (lang === 'ar' ? name.ar : name.en) : `IO ${id}`;
  return `${text} (${id})`;
}

const toLocalInput = (d: Date) => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

/**
 * Sensor settings of a device (issue 19): ignition input, odometer IO, fuel input with its calibration
 * table (typed or uploaded as CSV, checked here with the same parser the server uses), applying from a
 * chosen time. Each save is a new setting; the server keeps the history and repairs back-dated windows.
 */
export function SensorsPanel({ deviceUuid }: { deviceUuid: string }) {
  const { t, i18n } = useTranslation('devices');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const sensors = useQuery({
    queryKey: ['device-sensors', deviceUuid],
    queryFn: ({ signal }) => api.request('devices.sensors', { params: { uuid: deviceUuid }, signal }),
  });
  const current = sensors.data?.data.current ?? null;
  const [edit, setEdit] = useState<{
    ignition: string;
    odometer: string;
    fuel: string;
    csv: string;
    from: string;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  if (!sensors.data) return null;
  const form = edit ?? {
    ignition: current?.ignition_io != null ? String(current.ignition_io) : '',
    odometer: current?.odometer_io != null ? String(current.odometer_io) : '',
    fuel: current?.fuel_io != null ? String(current.fuel_io) : '',
    csv: (current?.fuel_calibration ?? []).map(([a, b]) => `${a},${b}`).join('\n'),
    from: toLocalInput(new Date()),
  };
  const set = (k: keyof typeof form, v: string) => {
    setSaved(false);
    setEdit({ ...form, [k]: v });
  };
  const parsed = form.csv.trim() ? parseCalibrationCsv(form.csv) : null;
  const lang = i18n.language;
  const defaults = sensors.data.data.default_ignition_io.map((id) => ioName(id, lang)).join(', ');

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await api.request('devices.sensorsUpdate', {
        params: { uuid: deviceUuid },
        body: {
          effective_from: new Date(form.from).toISOString(),
          ignition_io: form.ignition ? Number(form.ignition) : null,
          odometer_io: form.odometer ? Number(form.odometer) : null,
          fuel_io: form.fuel ? Number(form.fuel) : null,
          ...(form.csv.trim() ? { fuel_calibration_csv: form.csv } : { fuel_calibration: null }),
        },
      });
      setEdit(null);
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: ['device-sensors', deviceUuid] });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <DetailSection title={t('sensors.title')} description={t('sensors.intro')}>
      <form
        noValidate
        data-testid="sensors-panel"
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <p className="text-sm text-foreground-muted" data-testid="sensors-current">
          {current
            ? t('sensors.current', { at: new Date(current.effective_from).toLocaleString(intlLocale(lang)) })
            : t('sensors.noSetting')}
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <FormField id="sensor-ignition" label={t('sensors.ignition')}>
            <NativeSelect
              id="sensor-ignition"
              value={form.ignition}
              onChange={(e) => set('ignition', e.target.value)}
            >
              <option value="">{t('sensors.default', { ios: defaults })}</option>
              {IGNITION_IOS.map((id) => (
                <option key={id} value={id}>
                  {ioName(id, lang)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="sensor-odometer" label={t('sensors.odometer')}>
            <NativeSelect
              id="sensor-odometer"
              value={form.odometer}
              onChange={(e) => set('odometer', e.target.value)}
            >
              <option value="">{t('sensors.default', { ios: ioName(16, lang) })}</option>
              {ODOMETER_IOS.map((id) => (
                <option key={id} value={id}>
                  {ioName(id, lang)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
          <FormField id="sensor-fuel" label={t('sensors.fuel')}>
            <NativeSelect id="sensor-fuel" value={form.fuel} onChange={(e) => set('fuel', e.target.value)}>
              <option value="">{t('sensors.none')}</option>
              {FUEL_IOS.map((id) => (
                <option key={id} value={id}>
                  {ioName(id, lang)}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </div>
        <FormField
          id="sensor-calibration"
          label={t('sensors.calibration')}
          hint={t('sensors.calibrationHint')}
        >
          <Textarea
            id="sensor-calibration"
            dir="ltr"
            rows={5}
            value={form.csv}
            onChange={(e) => set('csv', e.target.value)}
          />
        </FormField>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          <label className="cursor-pointer text-primary underline">
            {t('sensors.upload')}
            <input
              type="file"
              accept=".csv,text/csv,text/plain"
              className="sr-only"
              data-testid="sensor-csv"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void file.text().then((text) => set('csv', text));
              }}
            />
          </label>
          {parsed && 'table' in parsed ? (
            <span data-testid="sensor-points">
              {t('sensors.points', {
                count: parsed.table.length,
                from: parsed.table[0]![1],
                to: parsed.table[parsed.table.length - 1]![1],
              })}
            </span>
          ) : null}
        </div>
        <FormField id="sensor-from" label={t('sensors.effectiveFrom')} hint={t('sensors.effectiveHint')}>
          <input
            id="sensor-from"
            type="datetime-local"
            dir="ltr"
            className="h-10 rounded-md border border-border bg-surface px-3 text-sm text-foreground"
            value={form.from}
            onChange={(e) => set('from', e.target.value)}
          />
        </FormField>
        <div>
          <Button type="submit" loading={saving} data-testid="sensors-save">
            {t('sensors.save')}
          </Button>
        </div>
        {error ? <InlineAlert>{error}</InlineAlert> : null}
        {saved ? (
          <p role="status" className="text-sm text-foreground">
            {t('sensors.saved')}
          </p>
        ) : null}
      </form>
    </DetailSection>
  );
}
