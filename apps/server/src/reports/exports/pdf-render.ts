import { Worker } from 'node:worker_threads';
import type { Cell, ExportTable } from './table';

/**
 * A PDF writer on the main thread whose drawing runs in a worker thread (pdf-worker.ts), so an export's
 * PDF costs the event loop only the hand-over of each page of cells (structured clone, ~1 ms for 500
 * rows) and the finished file (transferred, not copied). Issue 18: drawn on the main thread, pdfkit and
 * the font parsing blocked the loop 386-803 ms at a time under load.
 *
 * One page is drawn while the next is read: `addRows` waits for the page before last, not for its own.
 * A worker per export: it starts in the background (~0.2-0.5 s, pdfkit and the fonts load in it, not in
 * the server) and ends with the file, so nothing stays resident between exports.
 *
 * Where the worker's code lives: the bundled server (scripts/start-server.mjs) builds pdf-worker.js
 * beside its other chunks and marks each chunk with `__fleetChunkUrl`; from the sources (tsx, vitest)
 * pdf-worker-source.mjs starts tsx's loader in the worker first.
 */
declare const __fleetChunkUrl: string | undefined;

export function pdfWorkerUrl(): URL {
  return typeof __fleetChunkUrl === 'string'
    ? new URL('./pdf-worker.js', __fleetChunkUrl)
    : new URL('./pdf-worker-source.mjs', import.meta.url);
}

export interface PdfRender {
  addRows(rows: readonly (readonly Cell[])[]): Promise<void>;
  finish(): Promise<Buffer>;
  abort(): void;
}

type Reply =
  | { id: number; type: 'ok' }
  | { id: number; type: 'done'; file: ArrayBuffer }
  | { id: number; type: 'error'; message: string };

export async function openPdfRender(
  head: Omit<ExportTable, 'rows'>,
  meta: { subtitle: string; createdAt: Date; expectedRows: number },
): Promise<PdfRender> {
  const worker = new Worker(pdfWorkerUrl(), {
    workerData: {
      head: { title: head.title, columns: [...head.columns], rtl: head.rtl },
      meta: { ...meta, createdAt: meta.createdAt.toISOString() },
    },
  });
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let failure: Error | null = null;
  const fail = (err: Error) => {
    failure ??= err;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  worker.on('message', (r: Reply) => {
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.type === 'error') p.reject(new Error(`PDF worker: ${r.message}`));
    else p.resolve(r);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`PDF worker exited (${code})`)));
  let seq = 0;
  const ask = (msg: { type: 'rows'; rows: readonly (readonly Cell[])[] } | { type: 'finish' }) =>
    new Promise<Reply>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = ++seq;
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...msg, id });
    });
  let inFlight: Promise<unknown> = Promise.resolve();
  return {
    async addRows(rows) {
      await inFlight;
      const sent = ask({ type: 'rows', rows });
      // Not awaited here (the next page is read meanwhile), but never left unhandled.
      sent.catch(() => undefined);
      inFlight = sent;
    },
    async finish() {
      // The worker ends with the file, and also when drawing failed (it would otherwise stay alive).
      try {
        await inFlight;
        const r = await ask({ type: 'finish' });
        return Buffer.from((r as { file: ArrayBuffer }).file);
      } finally {
        void worker.terminate();
      }
    },
    abort() {
      void worker.terminate();
    },
  };
}
