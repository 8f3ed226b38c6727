import { z } from 'zod';
import { addDays, localDate, parseClock, parseDate, weekdayOf, zonedParts } from '../common/zoned-time';

/**
 * Salik tariff evaluation. The tariff is data (salik.json + the overlay's calendar), never code: this
 * module only knows how to read bands. All times are local to the data's time zone (Asia/Dubai).
 *
 * Reading rules (documented decisions):
 *  - The tariff in force is the entry whose effective_from/effective_to (local dates, inclusive) contain
 *    the crossing's local date. A flat_fee entry charges that fee at every hour.
 *  - During a Ramadan period of the calendar, the `kind: "ramadan"` bands replace the bands of the tariff
 *    in force (only when that tariff has bands, i.e. from 31 Jan 2025).
 *  - A band whose `to` is not after its `from` wraps past midnight; the minutes after midnight belong to
 *    the band of the day it started on ("sun 06:00-01:00" covers Monday 00:30).
 *  - A public holiday of the calendar is read with Sunday's bands (the data reports AED 4 at all hours
 *    but 01:00-06:00, which is exactly Sunday's schedule).
 */

const bandSchema = z.object({
  days: z.string().min(1),
  from: z.string().regex(/^\d{2}:\d{2}$/),
  to: z.string().regex(/^\d{2}:\d{2}$/),
  fee: z.number().nonnegative(),
});

const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const tariffSchema = z.object({
  kind: z.string().optional(),
  effective_from: dateString.optional(),
  effective_to: dateString.optional(),
  flat_fee: z.number().nonnegative().optional(),
  bands: z.array(bandSchema).optional(),
});

export const salikGateSchema = z.object({
  code: z.string().min(1),
  name_en: z.string(),
  name_ar: z.string(),
  road: z.string().optional(),
  /** Opening date as the data reports it: a year, a month or a day (YYYY, YYYY-MM, YYYY-MM-DD). */
  opened: z.string().optional(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  confidence: z.string().optional(),
  linked_group: z.string().optional(),
  note: z.string().optional(),
});

export const salikDataSchema = z.object({
  timezone: z.string().min(1),
  currency: z.string().min(1),
  gates: z.array(salikGateSchema),
  tariffs: z.array(tariffSchema).min(1),
});

export const salikCalendarSchema = z.object({
  ramadan_periods: z.array(z.object({ from: dateString, to: dateString })).default([]),
  holidays: z.array(dateString).default([]),
});

export type SalikData = z.infer<typeof salikDataSchema>;
export type SalikTariff = z.infer<typeof tariffSchema>;
export type SalikBand = z.infer<typeof bandSchema>;
export type SalikCalendar = z.infer<typeof salikCalendarSchema>;

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Parses a days spec: 'all', a day ('sun'), a range with wrap ('mon-sat', 'fri-sun') or a comma list. */
export function parseDays(spec: string): Set<number> {
  const out = new Set<number>();
  for (const part of spec
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())) {
    if (part === 'all') {
      for (let d = 0; d < 7; d++) out.add(d);
      continue;
    }
    const [a, b] = part.split('-');
    const from = DAY_NAMES.indexOf(a ?? '');
    const to = b === undefined ? from : DAY_NAMES.indexOf(b);
    if (from < 0 || to < 0) throw new RangeError(`Invalid days in Salik tariff: ${spec}`);
    for (let d = from; ; d = (d + 1) % 7) {
      out.add(d);
      if (d === to) break;
    }
  }
  return out;
}

interface CompiledBand {
  readonly band: SalikBand;
  readonly days: Set<number>;
  readonly from: number;
  readonly to: number;
  readonly wraps: boolean;
}

function compile(bands: readonly SalikBand[]): CompiledBand[] {
  return bands.map((band) => {
    const from = parseClock(band.from);
    const to = parseClock(band.to);
    return { band, days: parseDays(band.days), from, to, wraps: to <= from };
  });
}

/** Every band of a schedule that covers local weekday `day` at `minute` (0-1439). */
function matching(
  bands: readonly CompiledBand[],
  day: number,
  prevDay: number,
  minute: number,
): CompiledBand[] {
  return bands.filter((b) => {
    if (!b.wraps) return b.days.has(day) && minute >= b.from && minute < b.to;
    return (b.days.has(day) && minute >= b.from) || (b.days.has(prevDay) && minute < b.to);
  });
}

export interface SalikFee {
  readonly fee: number;
  readonly currency: string;
  readonly schedule: 'flat' | 'standard' | 'ramadan';
  readonly band?: SalikBand;
  readonly holiday: boolean;
  /** Local date and time of the crossing, 'YYYY-MM-DD HH:mm'. */
  readonly local: string;
}

export class SalikTariffTable {
  readonly timezone: string;
  readonly currency: string;
  private readonly base: { tariff: SalikTariff; bands?: CompiledBand[] }[];
  private readonly ramadan?: CompiledBand[];
  private readonly calendar: SalikCalendar;
  private readonly holidays: Set<string>;

  constructor(data: SalikData, calendar: Partial<SalikCalendar> = {}) {
    this.timezone = data.timezone;
    this.currency = data.currency;
    zonedParts(0, data.timezone); // throws on an unknown zone
    this.calendar = salikCalendarSchema.parse(calendar);
    for (const p of this.calendar.ramadan_periods) {
      parseDate(p.from);
      parseDate(p.to);
      if (p.to < p.from) throw new RangeError(`Ramadan period ends before it starts: ${p.from}..${p.to}`);
    }
    this.holidays = new Set(this.calendar.holidays);
    this.base = data.tariffs
      .filter((t) => t.kind === undefined)
      .map((t) => {
        if (t.flat_fee === undefined && !t.bands)
          throw new RangeError('A Salik tariff needs flat_fee or bands');
        return { tariff: t, bands: t.bands ? compile(t.bands) : undefined };
      });
    const ramadan = data.tariffs.find((t) => t.kind === 'ramadan');
    this.ramadan = ramadan?.bands ? compile(ramadan.bands) : undefined;
  }

  private tariffOn(date: string): { tariff: SalikTariff; bands?: CompiledBand[] } | undefined {
    return this.base.find(
      (t) =>
        (t.tariff.effective_from === undefined || t.tariff.effective_from <= date) &&
        (t.tariff.effective_to === undefined || date <= t.tariff.effective_to),
    );
  }

  isRamadan(date: string): boolean {
    return this.calendar.ramadan_periods.some((p) => p.from <= date && date <= p.to);
  }

  private dayOf(date: string): number {
    return this.holidays.has(date) ? 0 : weekdayOf(date);
  }

  /** All bands covering an instant (more than one means the data overlaps; used by the data tests). */
  bandsAt(epochMs: number): SalikBand[] {
    const date = localDate(epochMs, this.timezone);
    const t = this.tariffOn(date);
    if (!t?.bands) return [];
    const bands = this.ramadan && this.isRamadan(date) ? this.ramadan : t.bands;
    const p = zonedParts(epochMs, this.timezone);
    return matching(bands, this.dayOf(date), this.dayOf(addDays(date, -1)), p.hour * 60 + p.minute).map(
      (b) => b.band,
    );
  }

  /** The fee for one charged crossing at `epochMs`. Throws when no tariff or band covers it. */
  feeAt(epochMs: number): SalikFee {
    const date = localDate(epochMs, this.timezone);
    const p = zonedParts(epochMs, this.timezone);
    const local = `${date} ${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
    const holiday = this.holidays.has(date);
    const t = this.tariffOn(date);
    if (!t) throw new RangeError(`No Salik tariff in force on ${date}`);
    if (!t.bands)
      return { fee: t.tariff.flat_fee ?? 0, currency: this.currency, schedule: 'flat', holiday, local };
    const ramadan = !!this.ramadan && this.isRamadan(date);
    const bands = ramadan ? this.ramadan! : t.bands;
    const hit = matching(bands, this.dayOf(date), this.dayOf(addDays(date, -1)), p.hour * 60 + p.minute)[0];
    if (!hit) throw new RangeError(`No Salik tariff band covers ${local}`);
    return {
      fee: hit.band.fee,
      currency: this.currency,
      schedule: ramadan ? 'ramadan' : 'standard',
      band: hit.band,
      holiday,
      local,
    };
  }
}
