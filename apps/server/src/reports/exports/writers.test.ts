import { describe, expect, it } from 'vitest';
import { inflateRawSync } from 'node:zlib';

import { CsvWriter, csvField, toCsv } from './csv';
import { findFonts, isRtl, layoutLine, openFont, PdfWriter, toPdf } from './pdf';
import { formatTime, tableOf, type ExportTable } from './table';
import { columnName, toXlsx, xmlEscape, XlsxWriter } from './xlsx';
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
  it('a running CRC-32 over pieces equals the CRC of the whole', () => {
    const all = Buffer.from('مرحبا 123456789 '.repeat(300));
    let c = 0;
    for (let i = 0; i < all.length; i += 97) c = crc32(all.subarray(i, i + 97), c);
    expect(c).toBe(crc32(all));
  });
  it('the streaming writers give the same sheet and CSV page by page as at once', async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => [`V ${i}`, i % 7 ? `n${i}` : null, i / 4]);
    const head = { title: 'Trips report', columns: ['Vehicle', 'Note', 'km'], rtl: false };
    const at = new Date(Date.UTC(2026, 0, 5));
    const w = new XlsxWriter(head, at);
    const csv = new CsvWriter(head.columns);
    for (let i = 0; i < rows.length; i += 333) {
      await w.addRows(rows.slice(i, i + 333));
      csv.addRows(rows.slice(i, i + 333));
    }
    const streamed = await w.finish();
    const sheetOf = (buf: Buffer) => {
      const marker = buf.indexOf('xl/worksheets/sheet1.xml');
      const local = marker - 30;
      const size = buf.readUInt32LE(local + 18);
      const xml = inflateRawSync(buf.subarray(marker + 24, marker + 24 + size));
      expect(buf.readUInt32LE(local + 14)).toBe(crc32(xml));
      expect(buf.readUInt32LE(local + 22)).toBe(xml.length);
      return xml.toString('utf8');
    };
    const sheet = sheetOf(streamed);
    expect(sheet).toContain(
      '<row r="2501"><c r="A2501" t="inlineStr"><is><t xml:space="preserve">V 2499</t>',
    );
    expect(sheet.endsWith('</sheetData></worksheet>')).toBe(true);
    expect(sheet).toBe(sheetOf(await toXlsx({ ...head, rows }, at)));
    expect(csv.finish().equals(toCsv({ ...head, rows }))).toBe(true);
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

const fuelAr: ExportTable = {
  title: 'تقرير الوقود',
  columns: ['المركبة', 'الوقود المستهلك (لتر)', 'أقصى سرعة (كم/س)', 'ملاحظة'],
  rows: [
    ['دبي A 12345', 12.5, 80, 'سالك 12 AED: 50%'],
    ['أبوظبي 5', -3, null, 'Depot مستودع دبي'],
  ],
  rtl: true,
};

/** Text items of a PDF's first page through pdfjs (what copy-paste and screen readers get). */
async function pdfItems(pdf: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((it) => ('str' in it ? it.str : '')).filter((s) => s.trim() !== '');
}

const fonts = findFonts({});
const faces = {
  has: (face: 'arabic' | 'latin', cp: number) => openFont(fonts[face]!).hasGlyphForCodePoint(cp),
};

describe('PDF bidi and Arabic', () => {
  it('lays mixed lines out by the UBA, numbers and dates isolated, right to left in Arabic', () => {
    const visual = (t: string, rtl: boolean) => {
      const l = layoutLine(t, rtl, faces);
      return l.order.map((k) => l.runs[k]!.text);
    };
    expect(visual('تقرير الوقود', true)).toEqual(['تقرير الوقود']);
    // Left to right on the page: ")" "لتر" "(" then the words (the parentheses are mirrored when drawn).
    expect(visual('الوقود المستهلك (لتر)', true)).toEqual([')', 'لتر', ' (', 'الوقود المستهلك']);
    expect(visual('الفترة: 2026-11-01 – 2026-11-25', true)).toEqual([
      '2026-11-25',
      ' – ',
      '2026-11-01',
      ': ',
      'الفترة',
    ]);
    expect(visual('-3', true)).toEqual(['-3']);
    expect(visual('دبي A 12345', true)).toEqual(['A 12345', ' ', 'دبي']);
    expect(visual('Fuel used (L)', false)).toEqual(['Fuel used (L)']);
    expect(isRtl('12 سالك', false)).toBe(true);
  });
  it('every code point of the Arabic fuel report has a glyph in the face it is drawn with', () => {
    expect(fonts.arabic, 'the Arabic face is bundled from npm').toMatch(/noto-sans-arabic/);
    expect(fonts.latin, 'the Latin face is bundled from npm').toMatch(/inter/);
    const lines = [fuelAr.title, ...fuelAr.columns, ...fuelAr.rows.flat().map((c) => String(c ?? ''))];
    lines.push('الفترة: 2026-11-01 – 2026-11-25 (آسيا/دبي) 45%', 'الإطارات (كيلوباسكال / °م)', '…');
    for (const line of lines) {
      const l = layoutLine(line, true, faces);
      expect(l.missing, line).toEqual([]);
      for (const r of l.runs)
        for (const ch of r.text)
          expect(faces.has(r.face, ch.codePointAt(0)!), `${ch} in ${r.face}`).toBe(true);
    }
  });
  it('the Arabic PDF reads back in logical order: title, headers with parentheses and units, cells', async () => {
    const pdf = await toPdf(fuelAr, { subtitle: 'الفترة: 2026-11-01 – 2026-11-25', createdAt: new Date(0) });
    const items = await pdfItems(pdf);
    const text = items.join('');
    expect(items[0]).toBe('تقرير الوقود');
    expect(text).toContain('الفترة:2026-11-01–2026-11-25');
    expect(text).toContain('الوقود المستهلك(لتر)');
    expect(text).toContain('أقصى سرعة(كم/س)');
    expect(text).toContain('دبيA 12345');
    expect(text).toContain('مستودع دبي');
    expect(text).toContain('-3');
    // Letters read back whole: no control characters or '?' inside a word (Noto's split dots).
    for (const item of items.filter((s) => /[\u0600-\u06ff]/.test(s)))
      expect([...item].filter((c) => c < ' ' || c === '\ufffd' || c === '?')).toEqual([]);
  });
  it('the English PDF keeps each Latin line as one run', async () => {
    const en: ExportTable = {
      title: 'Fuel report',
      columns: ['Vehicle', 'Fuel used (L)'],
      rows: [['A 1', -3]],
      rtl: false,
    };
    const items = await pdfItems(
      await toPdf(en, { subtitle: 'Period: 2026-11-01 – 2026-11-25', createdAt: new Date(0) }),
    );
    expect(items).toEqual([
      'Fuel report',
      'Period: 2026-11-01 – 2026-11-25',
      'Vehicle',
      'Fuel used (L)',
      'A 1',
      '-3',
      '1 / 1',
    ]);
  });
  it('renders many rows over several pages', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [`مركبة ${i}`, 'x', i]);
    const pdf = await toPdf({ ...table, rows, rtl: true }, { subtitle: 'الفترة', createdAt: new Date(0) });
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect(text.match(/\/Type \/Page\b/g)?.length).toBeGreaterThanOrEqual(3);
  });
});

describe('PdfWriter (streamed PDF)', () => {
  it('writes pages out as rows arrive and numbers them against the expected count', async () => {
    const page = (from: number) => Array.from({ length: 200 }, (_, i) => [`A ${from + i}`, 'x', from + i]);
    const w = new PdfWriter(
      { title: 'Trips report', columns: table.columns, rtl: false },
      { subtitle: 'Period', createdAt: new Date(0), expectedRows: 600 },
    );
    await w.addRows(page(0));
    const afterFirst = w.written;
    await w.addRows(page(200));
    // Finished pages are already written (and dropped from pdfkit) before the document ends.
    expect(afterFirst).toBeGreaterThan(0);
    expect(w.written).toBeGreaterThan(afterFirst + 5_000);
    await w.addRows(page(400));
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: new Uint8Array(await w.finish()), useSystemFonts: false })
      .promise;
    const pages: string[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((it) => ('str' in it ? it.str : '')).filter((t) => t.trim() !== ''));
    }
    // 600 rows (31 under the title, 33 a page after): 19 pages, each numbered "n / 19" although the rows
    // came in three parts.
    expect(pages.length).toBe(19);
    pages.forEach((items, k) => expect(items.at(-1)).toBe(`${k + 1} / 19`));
    expect(pages.at(-1)).toContain('A 599');
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
