import { parentPort, workerData } from 'node:worker_threads';
import { PdfWriter } from './pdf';
import type { Cell } from './table';

/**
 * The PDF of an export, drawn in a worker thread (pdf-render.ts starts it): pdfkit's layout, fontkit's
 * shaping and the font parsing are CPU work of seconds for a long export, which on the server's own
 * thread held the event loop 386-803 ms at a time (issue 18). Messages: `rows` (a page of cells; answered
 * `ok`), `finish` (answered `done` with the file, its memory transferred, not copied), errors answered
 * `error` with the message. Messages are handled one after the other.
 */
interface Init {
  head: { title: string; columns: string[]; rtl: boolean };
  meta: { subtitle: string; createdAt: string; expectedRows: number };
}
type Message = { id: number; type: 'rows'; rows: Cell[][] } | { id: number; type: 'finish' };

const port = parentPort!;
const init = workerData as Init;
const writer = new PdfWriter(init.head, { ...init.meta, createdAt: new Date(init.meta.createdAt) });
let chain: Promise<void> = Promise.resolve();
port.on('message', (m: Message) => {
  chain = chain
    .then(async () => {
      if (m.type === 'rows') {
        await writer.addRows(m.rows);
        port.postMessage({ id: m.id, type: 'ok' });
      } else {
        const file = await writer.finish();
        const bytes = new Uint8Array(file.length);
        bytes.set(file);
        port.postMessage({ id: m.id, type: 'done', file: bytes.buffer }, [bytes.buffer]);
      }
    })
    .catch((err: unknown) => {
      port.postMessage({
        id: m.id,
        type: 'error',
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    });
});
