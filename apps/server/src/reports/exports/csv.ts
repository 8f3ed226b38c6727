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

/** toCsv in chunks of `chunk` rows, yielding to the event loop between them (long exports). */
export async function toCsvChunked(table: ExportTable, chunk = 1000): Promise<Buffer> {
  const parts: Buffer[] = [Buffer.from(CSV_BOM + table.columns.map(csvField).join(',') + '\r\n', 'utf8')];
  for (let i = 0; i < table.rows.length; i += chunk) {
    const lines = table.rows.slice(i, i + chunk).map((row) => row.map(csvField).join(',') + '\r\n');
    parts.push(Buffer.from(lines.join(''), 'utf8'));
    await new Promise((r) => setImmediate(r));
  }
  return Buffer.concat(parts);
}
