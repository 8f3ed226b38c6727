/** The part of fontkit (pdfkit's font engine, no bundled types) that the PDF writer and its tests use. */
declare module 'fontkit' {
  interface Glyph {
    id: number;
    codePoints: number[];
  }
  interface Font {
    numGlyphs: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): Glyph;
    layout(text: string): { glyphs: Glyph[] };
  }
  export function openSync(path: string): Font;
}
