import type { CDPSession, Page } from '@playwright/test';

/**
 * Hermetic-fonts check: asks Chromium (DevTools protocol, CSS.getPlatformFontsForNode) which fonts
 * it actually used to draw every piece of text on the page, and returns the uses of a font that is
 * not a web font. The kit bundles its faces (Inter, Noto Sans Arabic from @fontsource); a glyph they
 * lack falls back to whatever the machine has installed (DejaVu on one, Liberation on another), so
 * a screenshot would differ between machines. An empty list proves the system fonts were not
 * consulted for any glyph of the page, whatever fonts the machine has.
 */
export interface SystemFontUse {
  /** The text (trimmed, cut at 40 characters) of the element whose glyphs fell back. */
  text: string;
  /** `data-slot` of the nearest element that has one, to find the component. */
  slot: string | null;
  fonts: { familyName: string; glyphCount: number }[];
}

interface DomNode {
  nodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: DomNode[];
  contentDocument?: DomNode;
  shadowRoots?: DomNode[];
}

const sessions = new WeakMap<Page, Promise<CDPSession>>();

async function sessionOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page
      .context()
      .newCDPSession(page)
      .then(async (s) => {
        await s.send('DOM.enable');
        await s.send('CSS.enable');
        return s;
      });
    sessions.set(page, session);
  }
  return session;
}

function slotOf(node: DomNode): string | null {
  const attrs = node.attributes ?? [];
  for (let i = 0; i < attrs.length; i += 2) if (attrs[i] === 'data-slot') return attrs[i + 1] ?? null;
  return null;
}

export async function systemFontUses(page: Page): Promise<SystemFontUse[]> {
  const cdp = await sessionOf(page);
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
  const targets: { nodeId: number; text: string; slot: string | null }[] = [];
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE']);
  const walk = (node: DomNode, slot: string | null) => {
    if (skip.has(node.nodeName)) return;
    const here = slotOf(node) ?? slot;
    const text = (node.children ?? [])
      .filter((c) => c.nodeType === 3)
      .map((c) => c.nodeValue ?? '')
      .join('')
      .trim();
    if (node.nodeType === 1 && text)
      targets.push({ nodeId: node.nodeId, text: text.slice(0, 40), slot: here });
    for (const child of node.children ?? []) walk(child, here);
    for (const shadow of node.shadowRoots ?? []) walk(shadow, here);
    if (node.contentDocument) walk(node.contentDocument, here);
  };
  walk(root, null);
  const uses: SystemFontUse[] = [];
  for (const target of targets) {
    const { fonts } = (await cdp.send('CSS.getPlatformFontsForNode', { nodeId: target.nodeId })) as {
      fonts: { familyName: string; isCustomFont: boolean; glyphCount: number }[];
    };
    const system = fonts.filter((f) => !f.isCustomFont && f.glyphCount > 0);
    if (system.length > 0)
      uses.push({
        text: target.text,
        slot: target.slot,
        fonts: system.map(({ familyName, glyphCount }) => ({ familyName, glyphCount })),
      });
  }
  return uses;
}

type CanvasTextWindow = Window & { __canvasText?: Map<string, { font: string; text: string }> };

/**
 * Canvas text is invisible to the DOM audit above (the offline basemap's place names, the vehicle
 * layer's labels): a canvas draws with whatever font the machine resolves, silently. Installed before
 * the page's scripts, this records the font and text of every fillText / strokeText call, so
 * {@link canvasSystemFontUses} can check them too.
 */
export async function recordCanvasText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as CanvasTextWindow;
    const seen = (w.__canvasText = new Map());
    const proto = CanvasRenderingContext2D.prototype;
    for (const name of ['fillText', 'strokeText'] as const) {
      const draw = proto[name];
      proto[name] = function (
        this: CanvasRenderingContext2D,
        text: string,
        ...rest: [number, number, number?]
      ) {
        const key = `${this.font}\u0000${text}`;
        if (String(text).trim() && !seen.has(key)) seen.set(key, { font: this.font, text: String(text) });
        return draw.call(this, text, ...rest);
      } as typeof draw;
    }
  });
}

/**
 * The canvas text drawn since the last call, checked like DOM text: each (font, text) pair is laid out
 * in a probe element with that font, Chromium is asked which fonts it shaped the glyphs with, and the
 * probes are removed again (before any screenshot). Empty when every canvas glyph came from a bundled
 * web font, or nothing was drawn.
 */
export async function canvasSystemFontUses(page: Page): Promise<SystemFontUse[]> {
  const count = await page.evaluate(() => {
    const w = window as CanvasTextWindow;
    const drawn = [...(w.__canvasText?.values() ?? [])];
    w.__canvasText?.clear();
    if (drawn.length === 0) return 0;
    const box = document.createElement('div');
    box.dataset.canvasProbe = '';
    box.style.cssText = 'position:fixed;left:0;top:0;opacity:0;pointer-events:none;white-space:pre';
    for (const { font, text } of drawn) {
      const probe = document.createElement('span');
      probe.style.font = font;
      probe.title = font;
      probe.textContent = text;
      box.append(probe, document.createElement('br'));
    }
    document.body.append(box);
    return drawn.length;
  });
  // A probe may ask for a subset the page has not loaded yet: judge it once loading has finished.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  if (count === 0) return [];
  const cdp = await sessionOf(page);
  const uses: SystemFontUse[] = [];
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: 0 })) as { root: DomNode };
    const { nodeIds } = (await cdp.send('DOM.querySelectorAll', {
      nodeId: root.nodeId,
      selector: '[data-canvas-probe] > span',
    })) as { nodeIds: number[] };
    for (const nodeId of nodeIds) {
      const { fonts } = (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })) as {
        fonts: { familyName: string; isCustomFont: boolean; glyphCount: number }[];
      };
      const system = fonts.filter((f) => !f.isCustomFont && f.glyphCount > 0);
      if (system.length === 0) continue;
      const { node } = (await cdp.send('DOM.describeNode', { nodeId, depth: 1 })) as { node: DomNode };
      const text = (node.children ?? []).map((c) => c.nodeValue ?? '').join('');
      uses.push({
        text: text.trim().slice(0, 40),
        slot: 'canvas',
        fonts: system.map(({ familyName, glyphCount }) => ({ familyName, glyphCount })),
      });
    }
  } finally {
    await page.evaluate(() => document.querySelectorAll('[data-canvas-probe]').forEach((el) => el.remove()));
  }
  return uses;
}
