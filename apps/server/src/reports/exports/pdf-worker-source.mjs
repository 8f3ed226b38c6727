// The PDF worker's entry when the server runs from its TypeScript sources (tsx, vitest): the worker
// thread gets tsx's loader, then loads the worker module. The bundled server (scripts/start-server.mjs)
// starts its own compiled entry, pdf-worker.js, instead (pdf-render.ts chooses).
import { register } from 'tsx/esm/api';

register();
await import('./pdf-worker.ts');
