import { resolveLocale } from '../i18n/locale';
import { translate } from '../i18n/translate';
import type { IoReading } from './decode';

const UNITS_WITHOUT_SPACE = new Set(['%', '°C']);

/**
 * Units in Arabic chrome, as Gulf fleet software writes them ('12.65 فولت', '80 كم/س'); '%' is
 * shared. The number and its unit are one isolated run (U+2068 ... U+2069), so a reading inside a
 * right-to-left sentence never splits its unit around the number ('كم/ 34 س').
 */
const AR_UNITS: Readonly<Record<string, string>> = {
  V: 'فولت',
  A: 'أمبير',
  'km/h': 'كم/س',
  km: 'كم',
  L: 'لتر',
  m: 'م',
  rpm: 'دورة/دقيقة',
  '°C': '°م',
};

/** The display name of a reading in a locale; unknown elements read 'IO {id}'. */
export function ioReadingName(reading: IoReading, locale = 'en-US'): string {
  if (reading.name) return resolveLocale(locale) === 'ar' ? reading.name.ar : reading.name.en;
  return translate(locale, 'io.unknown', { id: reading.sourceKey });
}

/**
 * The display value of a reading: numbers with their unit ('12.65 V', '85%'), booleans On/Off,
 * enums their label (or the number when the value has none), raw values as text (objects as JSON).
 */
export function formatIoReading(reading: IoReading, locale = 'en-US'): string {
  switch (reading.kind) {
    case 'number': {
      if (reading.unit === undefined) return String(reading.value);
      if (resolveLocale(locale) === 'ar' && AR_UNITS[reading.unit]) {
        const unit = AR_UNITS[reading.unit]!;
        return `\u2068${reading.value}${UNITS_WITHOUT_SPACE.has(reading.unit) ? '' : ' '}${unit}\u2069`;
      }
      return UNITS_WITHOUT_SPACE.has(reading.unit)
        ? `${reading.value}${reading.unit}`
        : `${reading.value} ${reading.unit}`;
    }
    case 'boolean':
      return translate(locale, reading.value ? 'io.on' : 'io.off');
    case 'enum':
      if (!reading.label) return String(reading.value);
      return resolveLocale(locale) === 'ar' ? reading.label.ar : reading.label.en;
    case 'raw':
      if (reading.value === null || reading.value === undefined) return '';
      return typeof reading.value === 'object' ? JSON.stringify(reading.value) : String(reading.value);
  }
}
