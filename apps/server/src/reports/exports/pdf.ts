// The mobile app's typecheck reaches this file through its tests without the server's include list, so
// the declaration is referenced here (an import cannot name a .d.ts file).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./fontkit.d.ts" />
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import bidiFactory from 'bidi-js';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { Cell, ExportTable } from './table';

/**
 * PDF tables with pdfkit (A4 landscape, repeated header row, page numbers).
 *
 * Arabic: pdfkit lays text out with fontkit, which applies the font's OpenType Arabic shaping (initial,
 * medial, final and isolated forms, lam-alef ligatures) and returns a right-to-left run in visual order.
 * fontkit does no bidi, so every line goes through the Unicode bidirectional algorithm first (bidi-js,
 * see layoutLine): numbers, dates and signed values are isolated, runs are ordered by rule L2, brackets
 * in right-to-left runs are mirrored, and the runs are written in logical order at their visual places
 * so extracted text reads in order.
 * Known gaps: Noto's ccmp (split dots) is off so text extracts cleanly, which leaves a few joins a
 * little wider than in a browser; the inner stroke of a final kaf is a mark glyph pdfkit maps to no
 * text (pdfjs shows one stray control character beside such a word, the words themselves read whole).
 *
 * Fonts: bundled from npm (@fontsource/inter for Latin, @fontsource/noto-sans-arabic for Arabic, the
 * same faces the UI kit uses), so a PDF looks the same on every machine and Arabic never depends on
 * what the host has installed. fontkit reads the WOFF files and pdfkit embeds a TrueType subset.
 * Fontsource splits a face by script: the Arabic subset has the letters and the space but no digits or
 * ASCII punctuation, so each run takes the face that has its glyphs (Arabic letters from Noto, digits,
 * Latin and punctuation from Inter) and the tests check every code point written against its face.
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

interface GlyphFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
const opened = new Map<string, GlyphFont>();
/** The font file opened with fontkit (the engine pdfkit uses), to ask which code points it covers. */
export function openFont(path: string): GlyphFont {
  let f = opened.get(path);
  if (!f) {
    f = fontkit.openSync(path) as GlyphFont;
    opened.set(path, f);
  }
  return f;
}

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
/** Strong left-to-right characters for the base direction (digits are weak in the UBA). */
const STRONG_LTR = /[A-Za-z\u00C0-\u024F]/;
const bidi = bidiFactory();

const LRI = '\u2066';
const PDI = '\u2069';
/** A signed number ("-3"), an ISO date or a clock time; plain numbers already follow their neighbours. */
const NUMBER_TOKEN = /[-+\u2212]\d[\d.,]*%?|\d+(?:[-:/.]\d+)+/g;
/**
 * Wraps every number-like token in a left-to-right isolate (LRI … PDI), as the portal does with <bdi>:
 * by the plain UBA a date after an Arabic word turns into Arabic numbers and "2026-11-25" reads
 * "25-11-2026", "-3" reads "3-". Isolated, each token keeps its own left-to-right order while the
 * tokens themselves follow the line's direction.
 */
export function isolateNumbers(text: string, rtl: boolean): string {
  if (!rtl && !ARABIC.test(text)) return text; // nothing right to left: the plain UBA keeps it as one run
  return text.replace(NUMBER_TOKEN, (m) => `${LRI}${m}${PDI}`);
}

/** The two faces of a line: which one can draw a code point. */
export interface FaceSet {
  has(face: Face, codePoint: number): boolean;
}
export type Face = 'arabic' | 'latin';

/** A run of one line: one embedding level and one face, its text in logical order. */
export interface Run {
  readonly text: string;
  readonly face: Face;
  /** Odd embedding level: drawn right to left. */
  readonly rtl: boolean;
  readonly level: number;
}

/** Base direction of a text: that of its first strong character (UBA rule P2), else `fallback`. */
export function isRtl(text: string, fallback: boolean): boolean {
  for (const ch of text) {
    if (ARABIC.test(ch)) return true;
    if (STRONG_LTR.test(ch)) return false;
  }
  return fallback;
}

/**
 * Lays out one line with the Unicode bidirectional algorithm (bidi-js, UAX #9): resolves the embedding
 * level of every character for the paragraph direction, splits the text into runs of one level and one
 * face (Arabic letters from the Arabic face; digits, Latin and punctuation from the Latin face, which
 * has them; a space stays with the face before it so an Arabic phrase is shaped as one run), and
 * returns the runs in logical order with `order`, the run indices from left to right (rule L2:
 * reverse every sequence at level k or higher, from the highest level down to the lowest odd one).
 * A character neither face has is replaced by U+FFFD's stand-in '?' and reported in `missing`.
 */
export function layoutLine(
  text: string,
  rtl: boolean,
  faces: FaceSet,
): { runs: Run[]; order: number[]; missing: string[] } {
  if (!rtl && !ARABIC.test(text) && [...text].every((ch) => faces.has('latin', ch.codePointAt(0)!)))
    return {
      runs: text ? [{ text, face: 'latin', rtl: false, level: 0 }] : [],
      order: text ? [0] : [],
      missing: [],
    };
  const isolated = isolateNumbers(text, rtl);
  const { levels } = bidi.getEmbeddingLevels(isolated, rtl ? 'rtl' : 'ltr');
  const runs: Run[] = [];
  const missing: string[] = [];
  let cur: { text: string; face: Face; level: number } | null = null;
  let i = 0;
  const chars = [...isolated];
  for (let n = 0; n < chars.length; n++) {
    const ch = chars[n]!;
    const level = levels[i]!;
    i += ch.length;
    if (ch === LRI || ch === PDI) continue;
    const cp = ch.codePointAt(0)!;
    let face: Face | null;
    let out = ch;
    if (ARABIC.test(ch)) face = faces.has('arabic', cp) ? 'arabic' : faces.has('latin', cp) ? 'latin' : null;
    else if (
      /\s/.test(ch) &&
      cur?.face === 'arabic' &&
      cur.level === level &&
      ARABIC.test(chars[n + 1] ?? '') &&
      faces.has('arabic', cp)
    )
      face = 'arabic'; // a space between two Arabic words stays in their run (one shaped phrase)
    else face = faces.has('latin', cp) ? 'latin' : faces.has('arabic', cp) ? 'arabic' : null;
    if (face === null) {
      missing.push(ch);
      face = 'latin';
      out = '?';
    }
    if (cur && cur.face === face && cur.level === level) cur.text += out;
    else {
      if (cur) runs.push({ ...cur, rtl: cur.level % 2 === 1 });
      cur = { text: out, face, level };
    }
  }
  if (cur) runs.push({ ...cur, rtl: cur.level % 2 === 1 });
  const order = runs.map((_, k) => k);
  const max = Math.max(0, ...runs.map((r) => r.level));
  const lowestOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : r.level + 1)), max + 1);
  for (let lvl = max; lvl >= lowestOdd; lvl--) {
    for (let a = 0; a < order.length;) {
      if (runs[order[a]!]!.level < lvl) {
        a++;
        continue;
      }
      let b = a;
      while (b + 1 < order.length && runs[order[b + 1]!]!.level >= lvl) b++;
      order.splice(a, b - a + 1, ...order.slice(a, b + 1).reverse());
      a = b + 1;
    }
  }
  return { runs, order, missing };
}

/** The mirrored counterpart of a character in right-to-left text (UBA rule L4), if it has one. */
export function mirrorOf(ch: string): string | null {
  return bidi.getMirroredCharacter(ch) ?? null;
}

/**
 * OpenType features for Arabic runs: fontkit's defaults (joining forms, ligatures, marks) without
 * ccmp, which in Noto Sans Arabic splits letters into a dotless body and separate dot glyphs; pdfkit
 * maps each glyph to one text in the ToUnicode table, so the split made copied text unreadable.
 */
const ARABIC_FEATURES = { ccmp: false } as never;

const PAGE = { width: 841.89, height: 595.28, margin: 32 };
const FONT_SIZE = 8.5;
const ROW_H = 15;
const ROWS_PER_YIELD = 10;

/**
 * A PDF written as its rows arrive (issue 15): each `addRows` draws its rows, and pdfkit (bufferPages
 * false) writes every finished page out as soon as the next one opens, so a 100,000-row export holds the
 * file written so far and one page being drawn, never the export's rows. Two things a table needs are
 * therefore known in advance instead of from all rows: the page count for the "n / count" footers comes
 * from `expectedRows` (the export job counts the report first; if rows arrive beyond it, the count grows
 * with the pages drawn), and column widths come from the first batch of rows (up to 500, as before).
 */
export class PdfWriter {
  private readonly doc: InstanceType<typeof PDFDocument>;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<void>;
  private drawRow!: (row: readonly Cell[], r: number) => void;
  private end!: (empty: boolean) => void;
  private started = false;
  private drawn = 0;

  constructor(
    private readonly table: Omit<ExportTable, 'rows'>,
    private readonly meta: { subtitle: string; createdAt: Date; expectedRows: number },
    private readonly fonts: PdfFonts = findFonts(),
  ) {
    this.doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: PAGE.margin,
      // Pages are written out as the table goes (not buffered to the end, which flushed and compressed
      // every page in one synchronous run of seconds for a long export: issue 18).
      bufferPages: false,
      info: { Title: table.title, Producer: 'Fleet', CreationDate: meta.createdAt },
    });
    this.doc.on('data', (c: Buffer) => this.chunks.push(c));
    this.done = new Promise<void>((resolve, reject) => {
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
  }

  /**
   * Draws `rows`, yielding to the event loop every ROWS_PER_YIELD rows: a row takes ~0.5 ms idle and
   * up to ~2 ms on a loaded machine (Arabic is slower), and 50 rows between yields measured 40-97 ms
   * at load ~20 on 2 cores.
   */
  async addRows(rows: readonly (readonly Cell[])[]): Promise<void> {
    if (!this.started) await this.start(rows);
    for (const row of rows) {
      this.drawRow(row, this.drawn++);
      if (this.drawn % ROWS_PER_YIELD === 0) await yieldToLoop();
    }
  }

  /** Bytes of the file written out so far (the finished pages). */
  get written(): number {
    return this.chunks.reduce((n, c) => n + c.length, 0);
  }

  /** Ends the document; the whole file. */
  async finish(): Promise<Buffer> {
    if (!this.started) await this.start([]);
    this.end(this.drawn === 0);
    this.doc.end();
    await this.done;
    return Buffer.concat(this.chunks);
  }

  /** Loads the faces (each parse of a font file is its own step between yields) and draws the title. */
  private async start(firstRows: readonly (readonly Cell[])[]): Promise<void> {
    this.started = true;
    const { doc, table, meta, fonts } = this;
    if (fonts.latin) doc.registerFont('latin', fonts.latin);
    await yieldToLoop();
    if (fonts.arabic) doc.registerFont('arabic', fonts.arabic);
    await yieldToLoop();
    const latinFont = fonts.latin ? 'latin' : 'Helvetica';

    const faceFile = { arabic: fonts.arabic, latin: fonts.latin };
    const arabicGlyphs = fonts.arabic ? openFont(fonts.arabic) : null;
    await yieldToLoop();
    const glyphs = { arabic: arabicGlyphs, latin: fonts.latin ? openFont(fonts.latin) : null };
    await yieldToLoop();
    const coverage = new Map<number, boolean>();
    const faces: FaceSet = {
      // Helvetica (no Latin file) draws Latin-1; no Arabic face means Arabic letters become '?'.
      has: (face, cp) => {
        const key = face === 'arabic' ? -cp - 1 : cp;
        let v = coverage.get(key);
        if (v === undefined) {
          v = glyphs[face] ? glyphs[face].hasGlyphForCodePoint(cp) : face === 'latin' && cp < 0x100;
          coverage.set(key, v);
        }
        return v;
      },
    };
    const fontName = (face: Face) =>
      face === 'arabic' ? (faceFile.arabic ? 'arabic' : latinFont) : latinFont;
    // Widths are cached: pdfkit lays a string out again for every call when features are given.
    const runWidths = new Map<string, number>();
    const runWidth = (r: Run, size: number) => {
      const key = `${r.face}${size}\u0000${r.text}`;
      let w = runWidths.get(key);
      if (w === undefined) {
        doc.font(fontName(r.face)).fontSize(size);
        w =
          r.face === 'arabic'
            ? doc.widthOfString(r.text, { features: ARABIC_FEATURES })
            : doc.widthOfString(r.text);
        if (runWidths.size > 50_000) runWidths.clear();
        runWidths.set(key, w);
      }
      return w;
    };

    /**
     * Draws one line of text inside [x, x + width], aligned to its direction, shortened with … to fit.
     * Runs are placed left to right in visual order but written to the page in logical order, so copying
     * text or extracting it (pdfjs, screen readers) gives the words in reading order. An Arabic run goes
     * to pdfkit in logical order: fontkit shapes it with the font's OpenType tables and lays the glyphs
     * right to left. A right-to-left run of the Latin face (punctuation between Arabic words) is placed
     * character by character from the right; a mirrored character such as '(' is drawn as its glyph
     * flipped horizontally (the mirror image UBA rule L4 asks for) so its text stays '('.
     */
    const drawText = (
      text: string,
      x: number,
      y: number,
      width: number,
      size: number,
      rtlDefault: boolean,
      alignRight?: boolean,
    ) => {
      const rtl = isRtl(text, rtlDefault);
      y += size * 0.95; // runs of two faces share the baseline (their ascenders differ)
      let shown = text;
      let line = layoutLine(shown, rtl, faces);
      const total = () => line.runs.reduce((w, r) => w + runWidth(r, size), 0);
      let lineWidth = total();
      while (shown.length > 1 && lineWidth > width) {
        shown = [...shown].slice(0, Math.max(1, Math.floor([...shown].length * 0.85))).join('');
        line = layoutLine(`${shown}…`, rtl, faces);
        lineWidth = total();
      }
      const left: number[] = [];
      let cx = (alignRight ?? rtl) ? x + width - lineWidth : x;
      for (const k of line.order) {
        left[k] = cx;
        cx += runWidth(line.runs[k]!, size);
      }
      line.runs.forEach((r, k) => {
        doc.font(fontName(r.face)).fontSize(size);
        if (!r.rtl || r.face === 'arabic') {
          doc.text(r.text, left[k]!, y, {
            lineBreak: false,
            baseline: 'alphabetic',
            ...(r.face === 'arabic' ? { features: ARABIC_FEATURES } : {}),
          });
          return;
        }
        let right = left[k]! + doc.widthOfString(r.text);
        for (const ch of r.text) {
          const w = doc.widthOfString(ch);
          right -= w;
          if (mirrorOf(ch)) {
            doc.save();
            doc.transform(-1, 0, 0, 1, 2 * right + w, 0);
            doc.text(ch, right, y, { lineBreak: false, baseline: 'alphabetic' });
            doc.restore();
          } else doc.text(ch, right, y, { lineBreak: false, baseline: 'alphabetic' });
        }
      });
    };

    const inner = PAGE.width - 2 * PAGE.margin;
    const text = (c: Cell) => (c === null ? '' : typeof c === 'number' ? String(c) : c);
    // Column widths from the longest content (capped), scaled to the page width.
    const want = table.columns.map((h, i) =>
      Math.min(40, Math.max(h.length, ...firstRows.slice(0, 500).map((r) => text(r[i] ?? null).length), 4)),
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
    const firstPageRows = Math.floor((bottom - y) / ROW_H);
    const pageRows = Math.floor((bottom - PAGE.margin - ROW_H) / ROW_H);
    const pages =
      meta.expectedRows <= firstPageRows ? 1 : 1 + Math.ceil((meta.expectedRows - firstPageRows) / pageRows);
    let pageNo = 1;
    const footer = () => {
      doc.page.margins.bottom = 0; // the footer sits in the margin; do not let it open a new page
      doc.fillColor('#777777');
      drawText(
        `${pageNo} / ${Math.max(pages, pageNo)}`,
        PAGE.margin,
        PAGE.height - PAGE.margin - 4,
        inner,
        7,
        table.rtl,
        !table.rtl,
      );
      doc.fillColor('#111111');
    };
    this.drawRow = (row, r) => {
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
      row.forEach((c, i) => drawText(text(c), colX(i) + 3, y + 2, widths[i]! - 6, FONT_SIZE, table.rtl));
      y += ROW_H;
    };
    this.end = (empty) => {
      if (empty) drawText('—', PAGE.margin, y + 2, inner, FONT_SIZE, table.rtl);
      footer();
    };
  }
}

export async function toPdf(
  table: ExportTable,
  meta: { subtitle: string; createdAt: Date },
  fonts: PdfFonts = findFonts(),
): Promise<Buffer> {
  const writer = new PdfWriter(table, { ...meta, expectedRows: table.rows.length }, fonts);
  await writer.addRows(table.rows);
  return writer.finish();
}
