import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildGates, salikOverlaySchema, type SalikGate, type SalikOverlay } from './gates';
import { SalikTariffTable, salikDataSchema, type SalikData } from './tariff';

/**
 * Loads the Salik data at runtime. Defaults to the copies bundled next to this file (data/salik.json is
 * the shared data file as delivered; data/salik-overlay.json adds road bearings and the calendar); a
 * deployment can point to its own files. Errors name the file and the invalid field.
 */

export const defaultSalikDataPath = fileURLToPath(new URL('./data/salik.json', import.meta.url));
export const defaultSalikOverlayPath = fileURLToPath(new URL('./data/salik-overlay.json', import.meta.url));

export interface LoadedSalik {
  readonly data: SalikData;
  readonly overlay: SalikOverlay;
  readonly gates: SalikGate[];
  readonly tariff: SalikTariffTable;
}

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`Cannot read Salik data file ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`Salik data file ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

export function parseSalik(dataJson: unknown, overlayJson: unknown, source = 'Salik data'): LoadedSalik {
  const data = salikDataSchema.safeParse(dataJson);
  if (!data.success)
    throw new Error(
      `${source}: ${data.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const overlay = salikOverlaySchema.safeParse(overlayJson);
  if (!overlay.success) {
    throw new Error(
      `${source} overlay: ${overlay.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const tariff = new SalikTariffTable(data.data, {
    ramadan_periods: overlay.data.ramadan_periods,
    holidays: overlay.data.holidays,
  });
  return { data: data.data, overlay: overlay.data, gates: buildGates(data.data, overlay.data), tariff };
}

export function loadSalik(
  dataPath = defaultSalikDataPath,
  overlayPath = defaultSalikOverlayPath,
): LoadedSalik {
  return parseSalik(readJson(dataPath), readJson(overlayPath), dataPath);
}
