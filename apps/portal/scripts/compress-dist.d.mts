/** Types of compress-dist.mjs (imported by the server's portal tests). */
export function compressDist(dir: string): { files: number; before: number; afterBr: number };
