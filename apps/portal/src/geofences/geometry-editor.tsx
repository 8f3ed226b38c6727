import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, GeofenceLayer, type GeofenceGeometry, type GeofenceShapeType } from '@fleet/ui';
import { MapView } from '../map/map-view';
import { geometryCenter, toApiGeometry, toUiGeometry, type ApiGeometry } from './geometry';

const DEFAULT_CENTER: [number, number] = [25.2048, 55.2708];

/** Draw (polygon or circle) and edit a geofence on the map; the value is the API's geometry. */
export function GeometryEditor({
  value,
  color,
  onChange,
  error,
}: {
  value: ApiGeometry | null;
  color: string;
  onChange: (geometry: ApiGeometry | null) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation('geofences');
  const [mode, setMode] = useState<GeofenceShapeType | null>(value ? null : 'polygon');
  const shapes = value ? [{ id: 'current', color, geometry: toUiGeometry(value) }] : [];
  return (
    <div className="flex flex-col gap-2" data-testid="geometry-editor">
      <p className="text-sm text-foreground-muted">{t('draw.hint')}</p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          size="sm"
          variant={mode === 'polygon' ? 'primary' : 'outline'}
          onClick={() => setMode('polygon')}
        >
          {t('draw.polygon')}
        </Button>
        <Button
          type="button"
          size="sm"
          variant={mode === 'circle' ? 'primary' : 'outline'}
          onClick={() => setMode('circle')}
        >
          {t('draw.circle')}
        </Button>
        <Button
          type="button"
          size="sm"
          variant="ghost"
          disabled={!value}
          onClick={() => {
            onChange(null);
            setMode('polygon');
          }}
        >
          {t('draw.clear')}
        </Button>
      </div>
      <div className="h-80 overflow-hidden rounded-md border border-border">
        <MapView
          center={value ? geometryCenter(value) : DEFAULT_CENTER}
          zoom={value ? 14 : 11}
          className="h-full"
        >
          <GeofenceLayer
            shapes={shapes}
            editableId={value ? 'current' : null}
            drawMode={mode}
            onDrawModeChange={setMode}
            toolbar={false}
            onDrawComplete={(geometry: GeofenceGeometry) => {
              onChange(toApiGeometry(geometry));
              setMode(null);
            }}
            onShapeChange={(shape) => onChange(toApiGeometry(shape.geometry))}
          />
        </MapView>
      </div>
      {error ? (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
