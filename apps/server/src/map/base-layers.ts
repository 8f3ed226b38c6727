/**
 * Map base layers from the server's settings. An operator lists the tile sources the portal's maps
 * offer (a self-hosted OpenStreetMap tile server, a satellite provider they hold a licence for ...)
 * either inline in MAP_BASE_LAYERS (a JSON array) or in a JSON file named by MAP_BASE_LAYERS_FILE
 * (the file wins when both are set). Nothing is configured by default: public tile servers such as
 * tile.openstreetmap.org forbid use as a product's tile server, so the portal then draws the kit's
 * bundled offline basemap. The list is read and validated once at start-up; a bad entry stops the
 * server with a message naming the variable, like every other setting.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { baseLayerListSchema, type BaseLayer } from '@fleet/api-client';
import { ConfigError, type Config } from '../config/config';
import { route } from '../http/route';

export function loadBaseLayers(config: Pick<Config, 'MAP_BASE_LAYERS' | 'MAP_BASE_LAYERS_FILE'>): BaseLayer[] {
  const variable = config.MAP_BASE_LAYERS_FILE ? 'MAP_BASE_LAYERS_FILE' : 'MAP_BASE_LAYERS';
  let text: string | undefined = config.MAP_BASE_LAYERS;
  if (config.MAP_BASE_LAYERS_FILE) {
    try {
      text = readFileSync(config.MAP_BASE_LAYERS_FILE, 'utf8');
    } catch (error) {
      throw new ConfigError([{ variable, message: `cannot read ${config.MAP_BASE_LAYERS_FILE}: ${(error as Error).message}` }]);
    }
  }
  if (text === undefined || text.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([{ variable, message: `not JSON: ${(error as Error).message}` }]);
  }
  // A settings file may hold { "layers": [...] } as well as the bare array.
  if (json && typeof json === 'object' && !Array.isArray(json) && 'layers' in json) json = (json as { layers: unknown }).layers;
  const parsed = baseLayerListSchema.safeParse(json);
  if (!parsed.success)
    throw new ConfigError(
      parsed.error.issues.map((i) => ({
        variable,
        message: `${i.path.length ? `[${i.path.join('.')}] ` : ''}${i.message}`,
      })),
    );
  return parsed.data;
}

/** GET /v1/map/base-layers: the configured list, the same for every signed-in user. */
export function registerMapRoutes(app: FastifyInstance, config: Config): void {
  const layers = loadBaseLayers(config);
  route(app, 'map.baseLayers', async () => ({ data: { layers } }));
}
