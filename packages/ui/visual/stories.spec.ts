import { readFileSync } from 'node:fs';
import { expect, test as base, type Page } from '@playwright/test';
import { defaultMode, modeNames, type ModeName } from '../../../.storybook/modes.ts';

/**
 * Visual regression: walks storybook-static/index.json x the four modes, so a new story is
 * covered with no new test file.
 *
 * Speed: loading Storybook's iframe costs seconds, switching stories ~0.2 s, so one page is kept
 * per worker and stories are switched through Storybook's own channel (setCurrentStory /
 * updateGlobals), waiting each time for a new render to finish, play function included.
 * Determinism: the wall clock is pinned (`setFixedTime`): timers still fire but Date.now() stands
 * still, and the kit derives countdowns and toast lifetimes from Date.now(), so "today", retry
 * countdowns and toasts render identically on every run.
 */
interface IndexEntry {
  id: string;
  type: 'story' | 'docs';
  tags?: string[];
}

const index = JSON.parse(
  readFileSync(new URL('../storybook-static/index.json', import.meta.url), 'utf8'),
) as {
  entries: Record<string, IndexEntry>;
};
const storyIds = Object.values(index.entries)
  .filter((e) => e.type === 'story' && !e.tags?.includes('skip-visual'))
  .map((e) => e.id);

/** Fixed wall clock for every story: Friday 20 November 2026, 10:00 UTC. */
export const FIXED_NOW = new Date('2026-11-20T10:00:00Z');

type PreviewWindow = Window & {
  __STORYBOOK_PREVIEW__?: { currentRender?: { id?: string; phase?: string } };
  __STORYBOOK_ADDONS_CHANNEL__?: { emit: (event: string, payload: unknown) => void };
  __fleetPrevRender?: unknown;
};

class StoryViewer {
  private mode: ModeName | undefined;
  constructor(readonly page: Page) {}

  async show(storyId: string, mode: ModeName): Promise<string | undefined> {
    const { page } = this;
    if (this.mode === undefined) {
      await page.clock.setFixedTime(FIXED_NOW);
      await page.goto(`/iframe.html?id=${storyId}&viewMode=story&globals=mode:${mode}`);
      this.mode = mode;
    } else {
      await page.evaluate(
        ({ storyId, mode, changeMode }) => {
          const w = window as PreviewWindow;
          const channel = w.__STORYBOOK_ADDONS_CHANNEL__!;
          const current = w.__STORYBOOK_PREVIEW__?.currentRender;
          w.__fleetPrevRender = current;
          if (changeMode) channel.emit('updateGlobals', { globals: { mode } });
          if (current?.id === storyId) channel.emit('forceRemount', { storyId });
          else channel.emit('setCurrentStory', { storyId, viewMode: 'story' });
        },
        { storyId, mode, changeMode: mode !== this.mode },
      );
      this.mode = mode;
    }
    const phase = await page
      .waitForFunction(
        (id) => {
          const w = window as PreviewWindow;
          const r = w.__STORYBOOK_PREVIEW__?.currentRender;
          if (!r || r === w.__fleetPrevRender || r.id !== id) return false;
          return ['finished', 'completed', 'errored', 'aborted'].includes(r.phase ?? '') ? r.phase : false;
        },
        storyId,
        { timeout: 20_000 },
      )
      .then((h) => h.jsonValue());
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    return phase as string | undefined;
  }
}

const test = base.extend<object, { viewer: StoryViewer }>({
  viewer: [
    async ({ browser }, use) => {
      const page = await browser.newPage();
      await use(new StoryViewer(page));
      await page.close();
    },
    { scope: 'worker' },
  ],
});

for (const mode of [defaultMode, ...modeNames.filter((m) => m !== defaultMode)]) {
  for (const id of storyIds) {
    test(`${id} ${mode}`, async ({ viewer }) => {
      const phase = await viewer.show(id, mode);
      expect(['finished', 'completed'], `story ${id} ended in phase ${phase}`).toContain(phase);
      await expect(viewer.page).toHaveScreenshot(`${id}--${mode}.png`);
    });
  }
}
