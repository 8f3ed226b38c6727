import { describe, expect, it } from 'vitest';
import { decodeIoElements } from './decode';
import { formatIoReading, ioReadingName } from './format-reading';

const one = (id: string, value: unknown) => decodeIoElements({ [id]: { value } })[0]!;

describe('formatIoReading', () => {
  it.each<[string, unknown, string, string, string, string]>([
    ['67', 12650, 'Battery voltage', 'جهد البطارية', '12.65 V', '\u206812.65 فولت\u2069'],
    ['89', 85, 'Fuel level', 'مستوى الوقود', '85%', '85%'],
    ['25', 2150, 'Temperature', 'درجة الحرارة', '21.5°C', '\u206821.5°م\u2069'],
    ['21', 4, 'GSM signal', 'إشارة GSM', '4', '4'],
    ['239', 1, 'Ignition', 'الإشعال', 'On', 'تشغيل'],
    ['179', 0, 'Digital output 1', 'الإخراج الرقمي 1', 'Off', 'إيقاف'],
    ['200', 2, 'Sleep mode', 'وضع السكون', 'Deep sleep', 'سكون عميق'],
    ['200', 9, 'Sleep mode', 'وضع السكون', '9', '9'],
    ['9999', 'abc', 'IO 9999', 'IO 9999', 'abc', 'abc'],
    ['9998', { a: 1 }, 'IO 9998', 'IO 9998', '{"a":1}', '{"a":1}'],
    ['9997', null, 'IO 9997', 'IO 9997', '', ''],
  ])('io %s = %j', (id, value, nameEn, nameAr, en, ar) => {
    const reading = one(id, value);
    expect(ioReadingName(reading)).toBe(nameEn);
    expect(ioReadingName(reading, 'ar')).toBe(nameAr);
    expect(formatIoReading(reading)).toBe(en);
    expect(formatIoReading(reading, 'ar')).toBe(ar);
  });
});
