import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@fleet/ui';
import { useServices } from '../../state/app-context';

type RouteFileFormat = 'gpx' | 'kml';

/**
 * GPX / KML of one vehicle's route over a range, through the route report's file endpoint: fetched
 * with the session (files need the auth header) and saved through a blob link. Used by the route
 * report and by route history, each with its own label and test ids.
 */
export function RouteFileButtons({
  vehicle,
  from,
  to,
  label,
  testId,
  itemTestId,
  size,
}: {
  vehicle: string | undefined;
  from: string;
  to: string;
  label: string;
  testId: string;
  itemTestId: (format: RouteFileFormat) => string;
  size?: 'sm';
}) {
  const { t } = useTranslation('reports');
  const { api, toasts } = useServices();
  const [busy, setBusy] = useState<RouteFileFormat | null>(null);
  const download = async (format: RouteFileFormat) => {
    if (!vehicle) return;
    setBusy(format);
    try {
      const blob = await api.request('reports.routeFile', {
        query: { from, to, vehicle_uuid: vehicle, format },
      });
      const href = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = href;
      a.download = `route.${format}`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
    } catch (error) {
      toasts.show({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid={testId}>
      <span className="text-sm text-foreground-muted">{label}</span>
      {(['gpx', 'kml'] as const).map((format) => (
        <Button
          key={format}
          {...(size ? { size } : {})}
          variant="outline"
          loading={busy === format}
          disabled={busy !== null}
          data-testid={itemTestId(format)}
          onClick={() => void download(format)}
        >
          {t(`routeFile.${format}`)}
        </Button>
      ))}
    </div>
  );
}
