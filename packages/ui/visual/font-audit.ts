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
    if (node.nodeType === 1 && text) targets.push({ nodeId: node.nodeId, text: text.slice(0, 40), slot: here });
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
