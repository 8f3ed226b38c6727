import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import type { Cell, ExportTable } from './table';

/**
 * PDF tables with pdfkit (A4 landscape, repeated header row, page numbers).
 *
 * Arabic: pdfkit lays text out with fontkit, which applies the font's OpenType Arabic shaping (initial,
 * medial, final and isolated forms, lam-alef ligatures) and returns a right-to-left run in visual order.
 * fontkit does not implement the Unicode bidirectional algorithm, so mixed text is split here into
 * Arabic and non-Arabic runs: in a right-to-left cell the runs are drawn right to left while each Latin
 * or digit run stays left to right. That covers plates, numbers and names mixed with Arabic; nested
 * embeddings and mirrored brackets of the full UBA are not handled (documented gap).
 *
 * Fonts: bundled from npm (@fontsource/inter for Latin, @fontsource/noto-sans-arabic for Arabic, the
 * same faces the UI kit uses), so a PDF looks the same on every machine and Arabic never depends on
 * what the host has installed. fontkit reads the WOFF files and pdfkit embeds a TrueType subset.
 * REPORT_PDF_FONT / REPORT_PDF_FONT_ARABIC point at other font files; system fonts are the fallback if
 * the packages are missing. Without any Arabic font Arabic text is replaced by '?'; without a Latin
 * font the built-in Helvetica is used (Latin-1 only).
 */
const require = createRequire(import.meta.url);
function bundled(specifier: string): string[] {
  try {
    return [require.resolve(specifier)];
  } catch {
    return [];
  }
}
const LATIN_CANDIDATES = [
  ...bundled('@fontsource/inter/files/inter-latin-400-normal.woff'),
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf',
];
const ARABIC_CANDIDATES = [
  ...bundled('@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-400-normal.woff'),
  '/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf',
  '/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
];

export interface PdfFonts {
  readonly latin: string | null;
  readonly arabic: string | null;
}

export function findFonts(env: NodeJS.ProcessEnv = process.env): PdfFonts {
  const pick = (override: string | undefined, list: string[]) =>
    [override, ...list].find((p): p is string => !!p && existsSync(p)) ?? null;
  return {
    latin: pick(env.REPORT_PDF_FONT, LATIN_CANDIDATES),
    arabic: pick(env.REPORT_PDF_FONT_ARABIC, ARABIC_CANDIDATES),
  };
}

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
/** Characters drawn left to right in their own run (Latin letters and digits). */
const LTR_RUN = /[A-Za-z\u00C0-\u024F0-9]/;
/** Strong left-to-right characters for the base direction (digits are weak in the UBA). */
const STRONG_LTR = /[A-Za-z\u00C0-\u024F]/;

export interface Run {
  readonly text: string;
  readonly arabic: boolean;
}

/**
 * Splits text into Arabic and other runs in logical order. A space or punctuation mark takes the
 * direction of the strong characters around it when both agree, else the line's base direction (UBA
 * rules N1/N2), so the words of one Arabic phrase are shaped and ordered together.
 */
export function splitRuns(text: string, rtlBase = false): Run[] {
  const chars = [...text];
  const runs: Run[] = [];
  let cur = '';
  let curArabic = false;
  const strong = (i: number, dir: 1 | -1): boolean | null => {
    for (let k = i; k >= 0 && k < chars.length; k += dir) {
      if (ARABIC.test(chars[k]!)) return true;
      if (LTR_RUN.test(chars[k]!)) return false;
    }
    return null;
  };
  chars.forEach((ch, i) => {
    let arabic: boolean;
    if (ARABIC.test(ch)) arabic = true;
    else if (LTR_RUN.test(ch)) arabic = false;
    else {
      const before = strong(i, -1) ?? rtlBase;
      const after = strong(i, 1) ?? rtlBase;
      arabic = before === after ? before : rtlBase;
    }
    if (cur && arabic !== curArabic) {
      runs.push({ text: cur, arabic: curArabic });
      cur = '';
    }
    curArabic = arabic;
    cur += ch;
  });
  if (cur) runs.push({ text: cur, arabic: curArabic });
  return runs;
}

/** Base direction of a text: that of its first strong character (UBA rule P2), else `fallback`. */
export function isRtl(text: string, fallback: boolean): boolean {
  for (const ch of text) {
    if (ARABIC.test(ch)) return true;
    if (STRONG_LTR.test(ch)) return false;
  }
  return fallback;
}

/** Runs in the order they are drawn from left to right. */
export function visualRuns(text: string, rtl: boolean): Run[] {
  const runs = splitRuns(text, rtl);
  return rtl ? runs.reverse() : runs;
}

const PAGE = { width: 841.89, height: 595.28, margin: 32 };
const FONT_SIZE = 8.5;
const ROW_H = 15;

export async function toPdf(
  table: ExportTable,
  meta: { subtitle: string; createdAt: Date },
  fonts: PdfFonts = findFonts(),
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: PAGE.margin,
    // Pages are written out as the table goes (not buffered to the end, which flushed and compressed
    // every page in one synchronous run of seconds for a long export: issue 18).
    bufferPages: false,
    info: { Title: table.title, Producer: 'Fleet', CreationDate: meta.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  if (fonts.latin) doc.registerFont('latin', fonts.latin);
  if (fonts.arabic) doc.registerFont('arabic', fonts.arabic);
  const latinFont = fonts.latin ? 'latin' : 'Helvetica';

  const fontFor = (run: Run) => (run.arabic ? (fonts.arabic ? 'arabic' : latinFont) : latinFont);
  const runText = (run: Run) => (run.arabic && !fonts.arabic ? run.text.replace(ARABIC, '?') : run.text);
  const widthOf = (runs: Run[], size: number) =>
    runs.reduce((w, r) => w + doc.font(fontFor(r)).fontSize(size).widthOfString(runText(r)), 0);

  /** Draws one line of text inside [x, x + width], aligned to its direction, shortened with … to fit. */
  const drawText = (text: string, x: number, y: number, width: number, size: number, rtlDefault: boolean) => {
    const rtl = isRtl(text, rtlDefault);
    let shown = text;
    let runs = visualRuns(shown, rtl);
    while (shown.length > 1 && widthOf(runs, size) > width) {
      shown = [...shown].slice(0, Math.max(1, Math.floor([...shown].length * 0.85))).join('');
      runs = visualRuns(`${shown}…`, rtl);
    }
    let cx = rtl ? x + width - widthOf(runs, size) : x;
    for (const r of runs) {
      doc.font(fontFor(r)).fontSize(size);
      doc.text(runText(r), cx, y, { lineBreak: false });
      cx += doc.widthOfString(runText(r));
    }
  };

  const inner = PAGE.width - 2 * PAGE.margin;
  const text = (c: Cell) => (c === null ? '' : typeof c === 'number' ? String(c) : c);
  // Column widths from the longest content (capped), scaled to the page width.
  const want = table.columns.map((h, i) =>
    Math.min(40, Math.max(h.length, ...table.rows.slice(0, 500).map((r) => text(r[i] ?? null).length), 4)),
  );
  const sum = want.reduce((a, b) => a + b, 0);
  const widths = want.map((w) => (w / sum) * inner);
  // Right-to-left tables put the first column on the right.
  const xs: number[] = [];
  let acc = PAGE.margin;
  for (const w of widths) {
    xs.push(acc);
    acc += w;
  }
  const colX = (i: number) => (table.rtl ? PAGE.width - xs[i]! - widths[i]! : xs[i]!);

  let y = PAGE.margin;
  const header = () => {
    doc.rect(PAGE.margin, y - 2, inner, ROW_H).fill('#e8edf3');
    doc.fillColor('#111111');
    table.columns.forEach((h, i) => drawText(h, colX(i) + 3, y + 2, widths[i]! - 6, FONT_SIZE, table.rtl));
    y += ROW_H;
  };
  drawText(table.title, PAGE.margin, y, inner, 14, table.rtl);
  y += 22;
  doc.fillColor('#555555');
  drawText(meta.subtitle, PAGE.margin, y, inner, 9, table.rtl);
  doc.fillColor('#111111');
  y += 18;
  header();
  // The page count, known before drawing so each page gets its "n / count" footer as it is finished.
  const bottom = PAGE.height - PAGE.margin - 14;
  let pages = 1;
  for (let r = 0, yy = y; r < table.rows.length; r++, yy += ROW_H) {
    if (yy + ROW_H > bottom) {
      pages++;
      yy = PAGE.margin + ROW_H;
    }
  }
  let pageNo = 1;
  const footer = () => {
    doc.page.margins.bottom = 0; // the footer sits in the margin; do not let it open a new page
    doc.fillColor('#777777');
    drawText(`${pageNo} / ${pages}`, PAGE.margin, PAGE.height - PAGE.margin - 4, inner, 7, !table.rtl);
    doc.fillColor('#111111');
  };
  for (let r = 0; r < table.rows.length; r++) {
    if (y + ROW_H > bottom) {
      footer();
      pageNo++;
      doc.addPage();
      y = PAGE.margin;
      header();
    }
    if (r % 2 === 1)
      doc
        .rect(PAGE.margin, y - 2, inner, ROW_H)
        .fill('#f6f8fa')
        .fillColor('#111111');
    const row = table.rows[r]!;
    row.forEach((c, i) => drawText(text(c), colX(i) + 3, y + 2, widths[i]! - 6, FONT_SIZE, table.rtl));
    y += ROW_H;
    if (r % 100 === 99) await yieldToLoop(); // keep the event loop free for API requests
  }
  if (table.rows.length === 0) drawText('—', PAGE.margin, y + 2, inner, FONT_SIZE, table.rtl);
  footer();
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
