import type { Cell, ExportTable } from './table';

/**
 * CSV per RFC 4180: CRLF between records, a field is quoted when it holds a comma, a double quote, CR or
 * LF, and quotes inside are doubled. UTF-8 with a byte order mark, which is what makes Excel read Arabic
 * (and any non-ASCII text) as UTF-8 instead of the system code page.
 *
 * Text cells that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) get a leading
 * apostrophe (OWASP's CSV injection advice); numbers are written as numbers and never altered.
 */
export const CSV_BOM = '\uFEFF';

export function csvField(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  let text = cell;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(table: ExportTable): Buffer {
  const lines = [table.columns, ...table.rows].map((row) => row.map(csvField).join(','));
  return Buffer.from(CSV_BOM + lines.join('\r\n') + '\r\n', 'utf8');
}

/**
 * CSV written a page of rows at a time (exports, issue 15): each page is encoded at once, so only the
 * encoded file is held, never the rows of a 100,000-row export.
 */
export class CsvWriter {
  private readonly parts: Buffer[];

  constructor(columns: readonly string[]) {
    this.parts = [Buffer.from(CSV_BOM + columns.map(csvField).join(',') + '\r\n', 'utf8')];
  }

  addRows(rows: readonly (readonly Cell[])[]): void {
    let text = '';
    for (const row of rows) text += row.map(csvField).join(',') + '\r\n';
    if (text) this.parts.push(Buffer.from(text, 'utf8'));
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}
