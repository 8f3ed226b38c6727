import { createDeflateRaw, crc32 as nativeCrc32 } from 'node:zlib';
import type { Cell, ExportTable } from './table';
import { crc32 as jsCrc32, zip } from './zip';

/**
 * A minimal SpreadsheetML (ECMA-376 / ISO 29500 transitional) workbook with one sheet: content types,
 * package and workbook relationships, the workbook, a two-style stylesheet (normal, bold header) and the
 * sheet with inline strings (no shared-string table to keep in step). Numbers are numeric cells; text is
 * XML-escaped and characters XML 1.0 forbids are dropped. Arabic exports set the sheet right-to-left.
 *
 * Streaming (issue 15): `XlsxWriter` takes the rows a page at a time; each page becomes sheet XML that
 * goes straight into a raw-DEFLATE stream (node:zlib, compressed in libuv's thread pool) with a running
 * CRC-32, so a 100,000-row export holds only the compressed sheet, never its rows or its XML. Column
 * widths are chosen from the header and the first page (the `<cols>` element comes before the data).
 */
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Column letters of a 0-based index: 0 -> A, 25 -> Z, 26 -> AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function cellXml(cell: Cell, ref: string, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? `<c r="${ref}"${s}><v>${cell}</v></c>` : '';
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlEscape(cell)}</t></is></c>`;
}

function rowXml(row: readonly Cell[], r: number, style: number): string {
  return `<row r="${r}">${row.map((c, i) => cellXml(c, `${columnName(i)}${r}`, style)).join('')}</row>`;
}

function widthsOf(columns: readonly string[], rows: readonly (readonly Cell[])[]): number[] {
  const all = [columns as readonly Cell[], ...rows];
  return columns.map((_, i) => {
    let w = 8;
    for (const r of all) w = Math.max(w, String(r[i] ?? '').length + 2);
    return Math.min(60, w);
  });
}

/** Running CRC-32: node's native one where it exists (node >= 20.15), ours otherwise. */
const crc = (data: Buffer, value: number): number =>
  typeof nativeCrc32 === 'function' ? nativeCrc32(data, value) : jsCrc32(data, value);

/** The worksheet part, compressed as it is written. */
class SheetStream {
  private readonly deflate = createDeflateRaw();
  private readonly chunks: Buffer[] = [];
  private crc = 0;
  private size = 0;
  private readonly ended: Promise<void>;

  constructor() {
    this.deflate.on('data', (c: Buffer) => this.chunks.push(c));
    this.ended = new Promise((resolve, reject) => {
      this.deflate.on('end', resolve);
      this.deflate.on('error', reject);
    });
  }

  async write(text: string): Promise<void> {
    if (!text) return;
    const data = Buffer.from(text, 'utf8');
    this.crc = crc(data, this.crc);
    this.size += data.length;
    await new Promise<void>((resolve, reject) =>
      this.deflate.write(data, (err) => (err ? reject(err) : resolve())),
    );
  }

  async end(): Promise<{ packed: Buffer; crc: number; size: number }> {
    this.deflate.end();
    await this.ended;
    return { packed: Buffer.concat(this.chunks), crc: this.crc, size: this.size };
  }
}

/**
 * One-sheet workbook written a page of rows at a time (see the file comment). `addRows` may be called
 * any number of times; `finish` returns the .xlsx file.
 */
export class XlsxWriter {
  private readonly sheet = new SheetStream();
  private next = 1;
  private started = false;

  constructor(
    private readonly head: { title: string; columns: readonly string[]; rtl: boolean },
    private readonly at = new Date(),
  ) {}

  private async start(firstRows: readonly (readonly Cell[])[]): Promise<void> {
    this.started = true;
    const widths = widthsOf(this.head.columns, firstRows);
    await this.sheet.write(
      `${XML}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
        `<sheetViews><sheetView workbookViewId="0"${this.head.rtl ? ' rightToLeft="1"' : ''}>` +
        `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
        `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>` +
        `<sheetData>${rowXml(this.head.columns, this.next++, 1)}`,
    );
  }

  async addRows(rows: readonly (readonly Cell[])[]): Promise<void> {
    if (!this.started) await this.start(rows);
    let xml = '';
    for (const row of rows) xml += rowXml(row, this.next++, 0);
    await this.sheet.write(xml);
  }

  async finish(): Promise<Buffer> {
    if (!this.started) await this.start([]);
    await this.sheet.write('</sheetData></worksheet>');
    const sheet = await this.sheet.end();
    return zip(
      [
        ...packageParts(this.head.title).map(([name, xml]) => ({ name, data: Buffer.from(xml, 'utf8') })),
        { name: 'xl/worksheets/sheet1.xml', ...sheet },
      ],
      this.at,
    );
  }
}

/** Sheet names: at most 31 characters, none of []:*?/\ . */
function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Report';
}

/** The workbook's fixed parts (everything but the sheet). */
function packageParts(title: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
        `</Types>`,
    ],
    [
      '_rels/.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
        `<sheets><sheet name="${xmlEscape(sheetName(title))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      `${XML}<styleSheet xmlns="${NS_MAIN}">` +
        `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
        `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
        `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
        `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
        `<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
        `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
        `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
  ];
}

/** A whole table at once (scheduled reports, tests): the streaming writer fed in pages of 1,000 rows. */
export async function toXlsx(table: ExportTable, at = new Date()): Promise<Buffer> {
  const w = new XlsxWriter(table, at);
  for (let i = 0; i < table.rows.length; i += 1000) await w.addRows(table.rows.slice(i, i + 1000));
  return w.finish();
}
