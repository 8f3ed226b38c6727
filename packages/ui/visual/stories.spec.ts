import { readFileSync } from 'node:fs';
import { expect, test as base, type Page } from '@playwright/test';
import { defaultMode, modeNames, type ModeName } from '../../../.storybook/modes.ts';
import { canvasSystemFontUses, recordCanvasText, systemFontUses } from './font-audit.ts';

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
  __STORYBOOK_ADDONS_CHANNEL__?: {
    emit: (event: string, payload: unknown) => void;
    on: (event: string, listener: (payload: unknown) => void) => void;
    off: (event: string, listener: (payload: unknown) => void) => void;
  };
};

/** Storybook events that mean the story did not render or play as written. */
const failureEvents = [
  'playFunctionThrewException',
  'unhandledErrorsWhilePlaying',
  'storyThrewException',
  'storyErrored',
  'storyMissing',
] as const;

/**
 * Asks the preview for one thing (a globals update, a story switch or a remount) and resolves once
 * the render that request started has gone through every phase, afterEach hooks included
 * (Storybook's STORY_FINISHED), for `storyId`. Listening before emitting means the event cannot be
 * missed, and only a STORY_FINISHED that follows the request counts. Returns what went wrong on
 * the way: a play function that threw does not stop the render (the preview sets
 * `throwPlayFunctionExceptions: false`), the story still reaches the "finished" phase, and a
 * screenshot would show whatever state the play function had reached.
 */
async function request(
  page: Page,
  action: { kind: 'globals'; mode: ModeName } | { kind: 'story'; storyId: string; remount: boolean },
  storyId: string,
): Promise<string[]> {
  return page.evaluate(
    ({ action, storyId, failureEvents }) =>
      new Promise<string[]>((resolve, reject) => {
        const channel = (window as PreviewWindow).__STORYBOOK_ADDONS_CHANNEL__!;
        const failures: string[] = [];
        const onFailure = Object.fromEntries(
          failureEvents.map((name) => [
            name,
            (payload: unknown) => failures.push(`${name}: ${JSON.stringify(payload).slice(0, 2000)}`),
          ]),
        );
        const stop = () => {
          clearTimeout(timer);
          channel.off('storyFinished', onFinished);
          for (const name of failureEvents) channel.off(name, onFailure[name]!);
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no storyFinished for ${storyId} after ${action.kind}`));
        }, 20_000);
        function onFinished(payload: unknown) {
          if ((payload as { storyId?: string }).storyId !== storyId) return;
          stop();
          resolve(failures);
        }
        channel.on('storyFinished', onFinished);
        for (const name of failureEvents) channel.on(name, onFailure[name]!);
        if (action.kind === 'globals') channel.emit('updateGlobals', { globals: { mode: action.mode } });
        else if (action.remount) channel.emit('forceRemount', { storyId: action.storyId });
        else channel.emit('setCurrentStory', { storyId: action.storyId, viewMode: 'story' });
      }),
    { action, storyId, failureEvents },
  );
}

class StoryViewer {
  private mode: ModeName | undefined;
  constructor(readonly page: Page) {}

  /**
   * Shows `storyId` in `mode`, freshly mounted with its play function run, and returns what went
   * wrong (empty when the story rendered and played cleanly).
   *
   * A mode change is applied on its own first: Storybook answers a globals update by re-rendering
   * the story on screen, and that re-render is asynchronous. Emitted together with the story
   * switch (as this spec once did), it raced the new story: the outgoing story's re-render could
   * still be loading or rendering while the new one mounted and played. So: update the globals,
   * wait until the story on screen has finished re-rendering in the new mode, and only then
   * switch (or remount) the story. The page's first load only opens the preview; the story is then
   * remounted through the same path as every other one, so its failures are caught the same way.
   */
  async show(storyId: string, mode: ModeName): Promise<string[]> {
    const { page } = this;
    if (this.mode === undefined) {
      await page.clock.setFixedTime(FIXED_NOW);
      await page.goto(`/iframe.html?id=${storyId}&viewMode=story&globals=mode:${mode}`);
      await page.waitForFunction(
        (id) => {
          const r = (window as PreviewWindow).__STORYBOOK_PREVIEW__?.currentRender;
          return r?.id === id && ['finished', 'errored', 'aborted'].includes(r.phase ?? '');
        },
        storyId,
        { timeout: 20_000 },
      );
      // Storybook marks the preview "preparing" 100 ms after a story is selected (a timer) and
      // hides everything but its spinner until the story's first commit. A story whose mount
      // straddles that moment had its root turn display:none mid-mount, so a Leaflet map measured
      // its container as 0 x 0 (RouteLayer's fit went NaN, geofence views came out shifted) and a
      // virtualised table measured no viewport, depending on machine load. The screenshots are of
      // stories, not of that spinner: keep the story root laid out while preparing.
      await page.addStyleTag({
        content:
          '.sb-show-preparing-story:not(.sb-show-main) > #storybook-root { display: block !important; }\n' +
          '.sb-show-preparing-story > .sb-preparing-story { display: none !important; }',
      });
      this.mode = mode;
    }
    const current = await page.evaluate(
      () => (window as PreviewWindow).__STORYBOOK_PREVIEW__?.currentRender?.id,
    );
    if (mode !== this.mode) {
      if (current) await request(page, { kind: 'globals', mode }, current);
      else
        await page.evaluate((mode) => {
          (window as PreviewWindow).__STORYBOOK_ADDONS_CHANNEL__!.emit('updateGlobals', { globals: { mode } });
        }, mode);
      this.mode = mode;
    }
    const failures = await request(page, { kind: 'story', storyId, remount: current === storyId }, storyId);
    const state = await page.evaluate(() => ({
      phase: (window as PreviewWindow).__STORYBOOK_PREVIEW__?.currentRender?.phase,
      errorShown: document.body.classList.contains('sb-show-errordisplay'),
    }));
    if (state.phase !== 'finished') failures.push(`render ended in phase ${state.phase}`);
    if (state.errorShown) failures.push('Storybook shows its error display');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    return failures;
  }
}

const test = base.extend<object, { viewer: StoryViewer }>({
  viewer: [
    async ({ browser }, use) => {
      const page = await browser.newPage();
      // Before Storybook's scripts: canvas text (map labels, basemap place names) is audited too.
      await recordCanvasText(page);
      await use(new StoryViewer(page));
      await page.close();
    },
    { scope: 'worker' },
  ],
});

for (const mode of [defaultMode, ...modeNames.filter((m) => m !== defaultMode)]) {
  for (const id of storyIds) {
    test(`${id} ${mode}`, async ({ viewer }) => {
      const failures = await viewer.show(id, mode);
      expect(failures, `story ${id} did not render and play cleanly`).toEqual([]);
      // Every glyph on screen comes from a bundled web font, so no other machine's fonts can change it.
      expect(await systemFontUses(viewer.page), `text of ${id} drawn with a system font`).toEqual([]);
      expect(await canvasSystemFontUses(viewer.page), `canvas text of ${id} drawn with a system font`).toEqual([]);
      await expect(viewer.page).toHaveScreenshot(`${id}--${mode}.png`);
    });
  }
}
