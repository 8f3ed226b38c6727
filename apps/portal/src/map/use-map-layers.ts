import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OFFLINE_LAYER_ID, type MapBaseLayer } from '@fleet/ui';
import { useServices, useSession } from '../state/app-context';

const STORAGE_KEY = 'fleet.map.baseLayer';

function remembered(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The base layers of every map in the portal: the tile sources the server is configured with
 * (GET /v1/map/base-layers), named in the reader's language, and the user's last choice (kept in
 * this browser). Spread the result onto a MapView: `<MapView {...useMapLayers()} ...>`. Until the
 * list has loaded, and when it is empty or cannot be loaded, the map shows the offline basemap.
 */
export function useMapLayers(): {
  baseLayers: MapBaseLayer[];
  baseLayerId: string;
  onBaseLayerChange: (id: string) => void;
} {
  const { api } = useServices();
  const { user } = useSession();
  const { i18n } = useTranslation();
  const lang = i18n.language === 'ar' ? 'ar' : 'en';
  const query = useQuery({
    queryKey: ['map', 'base-layers'],
    queryFn: ({ signal }) => api.request('map.baseLayers', { signal }),
    enabled: !!user,
    staleTime: Infinity,
    retry: false,
  });
  const [chosen, setChosen] = useState(remembered);
  const layers = query.data?.data.layers;
  const baseLayers = useMemo<MapBaseLayer[]>(
    () =>
      (layers ?? []).map((l) => ({
        id: l.id,
        label: l.name[lang],
        url: l.url,
        attribution: l.attribution,
        maxZoom: l.maxZoom,
        ...(l.subdomains ? { subdomains: l.subdomains } : {}),
      })),
    [layers, lang],
  );
  const valid = chosen === OFFLINE_LAYER_ID || baseLayers.some((l) => l.id === chosen);
  const baseLayerId = valid && chosen ? chosen : (baseLayers[0]?.id ?? OFFLINE_LAYER_ID);
  const onBaseLayerChange = useCallback((id: string) => {
    setChosen(id);
    try {
      localStorage.setItem(STORAGE_KEY, id);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }, []);
  return { baseLayers, baseLayerId, onBaseLayerChange };
}
