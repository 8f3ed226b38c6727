/**
 * Fuel calibration (issue 19): a tank's level sensor gives a raw value (ADC millivolts, a percentage,
 * a capacitive sensor's count) that is not linear in litres for a shaped tank. The user enters the
 * calibration table measured while filling the tank (raw value -> litres) in a table editor or as CSV;
 * {@link fuelLitres} turns any raw reading into litres by linear interpolation between the two
 * surrounding points, clamped to the table's ends (a reading below the first point is the first
 * point's litres, above the last the last's). One pure function, used at ingest and by reports.
 */

export type CalibrationTable = readonly (readonly [raw: number, litres: number])[];

export const CALIBRATION_MAX_POINTS = 200;

export type CalibrationError =
  | { code: 'too_few_points' }
  | { code: 'too_many_points' }
  | { code: 'not_a_number'; line: number }
  | { code: 'duplicate_raw'; line: number }
  | { code: 'negative_litres'; line: number };

/** Sorts by raw value and checks the table; the error names the offending (1-based) line. */
export function validateCalibration(
  points: readonly (readonly [number, number])[],
): { table: CalibrationTable } | { error: CalibrationError } {
  if (points.length < 2) return { error: { code: 'too_few_points' } };
  if (points.length > CALIBRATION_MAX_POINTS) return { error: { code: 'too_many_points' } };
  for (let i = 0; i < points.length; i++) {
    const [raw, litres] = points[i]!;
    if (!Number.isFinite(raw) || !Number.isFinite(litres))
      return { error: { code: 'not_a_number', line: i + 1 } };
    if (litres < 0) return { error: { code: 'negative_litres', line: i + 1 } };
  }
  const order = points.map((p, i) => ({ p, i })).sort((a, b) => a.p[0] - b.p[0]);
  for (let k = 1; k < order.length; k++) {
    if (order[k]!.p[0] === order[k - 1]!.p[0])
      return { error: { code: 'duplicate_raw', line: order[k]!.i + 1 } };
  }
  return { table: order.map(({ p }) => [p[0], p[1]] as const) };
}

/**
 * Parses `raw,litres` lines (a header line of words is skipped; `;` or tab also separate; blank lines
 * ignored; decimal comma accepted when the separator is `;` or a tab).
 */
export function parseCalibrationCsv(text: string): { table: CalibrationTable } | { error: CalibrationError } {
  const points: [number, number][] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const sep = line.includes('\t') ? '\t' : line.includes(';') ? ';' : ',';
    const cells = line.split(sep).map((c) => c.trim());
    const norm = (c: string | undefined) => (sep === ',' ? c : c?.replace(',', '.')) ?? '';
    const raw = Number(norm(cells[0]));
    const litres = Number(norm(cells[1]));
    if (points.length === 0 && (Number.isNaN(raw) || Number.isNaN(litres)) && /[a-z]/i.test(line)) continue;
    if (
      cells.length < 2 ||
      norm(cells[0]) === '' ||
      norm(cells[1]) === '' ||
      !Number.isFinite(raw) ||
      !Number.isFinite(litres)
    )
      return { error: { code: 'not_a_number', line: i + 1 } };
    points.push([raw, litres]);
  }
  return validateCalibration(points);
}

/** Litres for a raw reading through a validated (ascending) table; null without a usable table. */
export function fuelLitres(raw: number, table: CalibrationTable | null | undefined): number | null {
  if (!table || table.length < 2 || !Number.isFinite(raw)) return null;
  const first = table[0]!;
  const last = table[table.length - 1]!;
  if (raw <= first[0]) return first[1];
  if (raw >= last[0]) return last[1];
  let lo = 0;
  let hi = table.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (table[mid]![0] <= raw) lo = mid;
    else hi = mid;
  }
  const [x0, y0] = table[lo]!;
  const [x1, y1] = table[hi]!;
  return Math.round((y0 + ((raw - x0) * (y1 - y0)) / (x1 - x0)) * 100) / 100;
}
