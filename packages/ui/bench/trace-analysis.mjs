/**
 * Main-thread CPU time per benchmark phase from a Chromium trace. Wall-clock figures on a shared,
 * loaded machine mostly measure waiting for a core; the trace's thread time (`tdur`) of each
 * top-level task on the page's renderer main thread is the work itself. Phases are delimited by
 * `performance.mark('bench:<phase>:start|end')` in the page.
 */

/** @param {{ traceEvents: any[] } | any[]} trace */
export function phaseCpu(trace) {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mainThreads = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const marks = events.filter(
    (e) =>
      typeof e.name === 'string' &&
      e.name.startsWith('bench:') &&
      String(e.cat).includes('blink.user_timing'),
  );
  // The page's renderer is the process that emitted the marks.
  const pagePid = marks[0]?.pid;
  const tasks = events
    .filter(
      (e) =>
        e.ph === 'X' &&
        (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') &&
        e.pid === pagePid &&
        mainThreads.has(`${e.pid}:${e.tid}`),
    )
    .map((e) => ({
      ts: e.ts,
      end: e.ts + (e.dur ?? 0),
      cpu: (e.tdur ?? e.dur ?? 0) / 1000,
      wall: (e.dur ?? 0) / 1000,
    }))
    .sort((a, b) => a.ts - b.ts || b.end - a.end)
    // `ThreadControllerImpl::RunTask` usually sits inside a `RunTask` of the same span: count only
    // outermost tasks, or the same work is summed twice.
    .filter(
      ((lastEnd) => (t) => {
        if (t.ts < lastEnd) return false;
        lastEnd = t.end;
        return true;
      })(-Infinity),
    );
  const starts = new Map();
  const phases = new Map();
  for (const m of marks.sort((a, b) => a.ts - b.ts)) {
    const match = /^bench:(.+):(start|end)$/.exec(m.name);
    if (!match) continue;
    if (match[2] === 'start') starts.set(match[1], m.ts);
    else if (starts.has(match[1])) phases.set(match[1], [starts.get(match[1]), m.ts]);
  }
  /** @type {Record<string, { cpuMs: number; wallMs: number; tasks: number; longestTaskCpuMs: number }>} */
  const out = {};
  for (const [name, [from, to]] of phases) {
    let cpu = 0;
    let wall = 0;
    let n = 0;
    let longest = 0;
    for (const t of tasks) {
      // A task counts when it overlaps the window, in proportion to the overlap.
      const overlap = Math.min(t.end, to) - Math.max(t.ts, from);
      if (overlap <= 0) continue;
      const share = t.end > t.ts ? overlap / (t.end - t.ts) : 1;
      cpu += t.cpu * share;
      wall += t.wall * share;
      n++;
      longest = Math.max(longest, t.cpu);
    }
    out[name] = { cpuMs: round(cpu), wallMs: round(wall), tasks: n, longestTaskCpuMs: round(longest) };
  }
  return {
    phases: out,
    taskCount: tasks.length,
    mainThreadFound: mainThreads.size > 0 && pagePid !== undefined,
  };
}

const round = (n) => Math.round(n * 100) / 100;

export function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
  return {
    runs: s.length,
    median: round(at(0.5) ?? NaN),
    p95: round(at(0.95) ?? NaN),
    max: round(s[s.length - 1] ?? NaN),
  };
}
