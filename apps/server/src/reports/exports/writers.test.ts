import { describe, expect, it } from 'vitest';
import { inflateRawSync } from 'node:zlib';
// @ts-expect-error fontkit ships no types; only layout() and glyphForCodePoint() are used here
import * as fontkit from 'fontkit';
import { csvField, toCsv } from './csv';
import { findFonts, isRtl, splitRuns, toPdf, visualRuns } from './pdf';
import { formatTime, tableOf, type ExportTable } from './table';
import { columnName, toXlsx, xmlEscape } from './xlsx';
import { crc32, zip } from './zip';

const table: ExportTable = {
  title: 'Trips report',
  columns: ['Vehicle', 'Note', 'km'],
  rows: [
    ['A 1', 'says "hi", then\r\nleaves', 12.5],
    ['دبي 5', '=SUM(A1)', -3],
    [null, 'سالك 12 AED', null],
  ],
  rtl: false,
};

describe('CSV (RFC 4180)', () => {
  it('quotes commas, quotes and line breaks, doubles quotes, CRLF records, BOM first', () => {
    const text = toCsv(table).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1)).toBe(
      'Vehicle,Note,km\r\nA 1,"says ""hi"", then\r\nleaves",12.5\r\nدبي 5,\'=SUM(A1),-3\r\n,سالك 12 AED,\r\n',
    );
  });
  it('neutralises formulas in text but keeps negative numbers', () => {
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@x')).toBe("'@x");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(Number.NaN)).toBe('');
  });
});

describe('ZIP and XLSX', () => {
  it('CRC-32 matches the standard check value', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });
  it('zip entries inflate back to their content with the recorded CRC', async () => {
    const data = Buffer.from('مرحبا '.repeat(1000));
    const z = await zip([{ name: 'a/b.txt', data }], new Date(Date.UTC(2026, 0, 5, 10, 30, 20)));
    expect(z.readUInt32LE(0)).toBe(0x04034b50);
    expect(z.readUInt32LE(14)).toBe(crc32(data));
    const size = z.readUInt32LE(18);
    expect(inflateRawSync(z.subarray(30 + 7, 30 + 7 + size)).equals(data)).toBe(true);
    expect(z.readUInt32LE(z.length - 22)).toBe(0x06054b50);
    expect(z.readUInt16LE(10)).toBe((10 << 11) | (30 << 5) | 10); // DOS time 10:30:20
  });
  it('column names and XML escaping', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(xmlEscape('a<b & "c"\u0001')).toBe('a&lt;b &amp; &quot;c&quot;');
  });
  it('an Arabic workbook is right-to-left', async () => {
    const buf = await toXlsx({ ...table, rtl: true });
    expect(buf.subarray(0, 2).toString('latin1')).toBe('PK');
    // The sheet part is the last entry; find its local header and inflate it.
    const marker = buf.indexOf('xl/worksheets/sheet1.xml');
    const local = marker - 30;
    const size = buf.readUInt32LE(local + 18);
    const sheet = inflateRawSync(buf.subarray(marker + 24, marker + 24 + size)).toString('utf8');
    expect(sheet).toContain('rightToLeft="1"');
    expect(sheet).toContain('<c r="C3"><v>-3</v></c>');
    expect(sheet).toContain('says &quot;hi&quot;, then\r\nleaves');
  });
});

interface FontLike {
  layout(text: string): { glyphs: { id: number }[] };
  glyphForCodePoint(cp: number): { id: number };
}

describe('PDF text runs', () => {
  it('splits Arabic and Latin runs and orders them for a right-to-left line', () => {
    // In a right-to-left line the space between Arabic and digits joins the Arabic run, in a left-to-right
    // line the Latin one.
    expect(splitRuns('سالك 12 AED', true)).toEqual([
      { text: 'سالك ', arabic: true },
      { text: '12 AED', arabic: false },
    ]);
    expect(splitRuns('Depot مستودع دبي', false)).toEqual([
      { text: 'Depot ', arabic: false },
      { text: 'مستودع دبي', arabic: true },
    ]);
    expect(isRtl('12 سالك', false)).toBe(true);
    expect(isRtl('12', true)).toBe(true);
    expect(visualRuns('سالك 12', true).map((r) => r.text)).toEqual(['12', 'سالك ']);
  });
  it('the Arabic font shapes letters into joined forms (not isolated ones)', () => {
    const path = findFonts({}).arabic;
    expect(path, 'the Arabic face is bundled from npm').toMatch(/noto-sans-arabic/);
    if (!path) return;
    const font = (fontkit as { openSync(p: string): FontLike }).openSync(path);
    const word = 'مرحبا';
    const shaped = font.layout(word).glyphs.map((g) => g.id);
    const isolated = [...word].map((c) => font.glyphForCodePoint(c.codePointAt(0)!).id);
    // Noto may split a letter into a dotless body and its dots, so counts can differ; what matters is
    // that the joining letters (meem and hah start their words' joined groups) left their isolated forms.
    expect(shaped.length).toBeGreaterThanOrEqual(isolated.length);
    expect(shaped).not.toContain(isolated[0]);
    expect(shaped).not.toContain(isolated[2]);
  });
  it('renders many rows over several pages', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`مركبة ${i}`, 'x', i]);
    const pdf = await toPdf({ ...table, rows, rtl: true }, { subtitle: 'الفترة', createdAt: new Date(0) });
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)?.length).toBeGreaterThanOrEqual(3);
  });
});

describe('table', () => {
  it('formats times in the requester zone and picks the locale headers', () => {
    expect(formatTime('2026-01-05T04:30:00Z', 'Asia/Dubai')).toBe('2026-01-05 08:30');
    const t = tableOf(
      'geofence-visits',
      [
        {
          vehicle: { license_plate_number: '123', license_plate_state_code: 'DXB' },
          geofence_name: 'Depot',
          entered_at: '2026-01-05T04:30:00Z',
          exited_at: null,
          dwell_seconds: null,
        },
      ],
      'ar',
      'Asia/Dubai',
    );
    expect(t.columns[0]).toBe('المركبة');
    expect(t.rows[0]).toEqual(['DXB 123', 'Depot', '2026-01-05 08:30', null, null]);
    expect(t.rtl).toBe(true);
  });
});
