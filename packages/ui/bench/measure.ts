/** Small timing helpers shared by the benchmark pages (run in the browser). */

export interface Stats {
  runs: number;
  min: number;
  median: number;
  p95: number;
  max: number;
}

export function stats(samples: readonly number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))] ?? Number.NaN;
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    runs: s.length,
    min: r(s[0] ?? Number.NaN),
    median: r(at(0.5)),
    p95: r(at(0.95)),
    max: r(s[s.length - 1] ?? Number.NaN),
  };
}

/** Long tasks (> 50 ms main-thread blocks) seen by a PerformanceObserver while `run` executes. */
export async function withLongTasks<T>(run: () => Promise<T>): Promise<{ result: T; longTasks: number[] }> {
  const longTasks: number[] = [];
  let observer: PerformanceObserver | null = null;
  try {
    observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push(Math.round(e.duration));
    });
    observer.observe({ type: 'longtask', buffered: false });
  } catch {
    observer = null;
  }
  const result = await run();
  await nextFrame();
  await new Promise((r) => setTimeout(r, 50));
  observer?.disconnect();
  return { result, longTasks };
}

export function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

/** Resolves after the next frame has been rendered (rAF, then a task queued behind that frame's paint). */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    }),
  );
}

/**
 * Time of a synchronous block (`syncMs`) and until the frame showing its result has been painted
 * (`toFrameMs`: includes canvas rasterisation, style, layout, paint, and up to one vsync of waiting).
 */
export async function timed(
  block: () => void,
  phase?: string,
): Promise<{ syncMs: number; toFrameMs: number }> {
  if (phase) performance.mark(`bench:${phase}:start`);
  if (phase && window.__benchProfile) console.profile(phase);
  const t0 = performance.now();
  block();
  const t1 = performance.now();
  await afterPaint();
  const t2 = performance.now();
  if (phase && window.__benchProfile) console.profileEnd(phase);
  if (phase) performance.mark(`bench:${phase}:end`);
  return { syncMs: t1 - t0, toFrameMs: t2 - t0 };
}

/** Marks a phase for the trace analysis (main-thread CPU time is summed between the marks). */
export async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  performance.mark(`bench:${name}:start`);
  if (window.__benchProfile) console.profile(name);
  const result = await run();
  if (window.__benchProfile) console.profileEnd(name);
  performance.mark(`bench:${name}:end`);
  return result;
}

declare global {
  interface Window {
    __bench?: { done: boolean; error?: string; result?: unknown };
    /** Set by run-bench.mjs under BENCH_PROFILE: phases are also recorded as CPU profiles. */
    __benchProfile?: boolean;
  }
}

export function report(result: unknown): void {
  window.__bench = { done: true, result };
}

export function fail(error: unknown): void {
  window.__bench = {
    done: true,
    error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error),
  };
}
