/**
 * What a cluster worker tells the pipeline running next to it (both only share the Storage object of
 * their node, so the hooks are keyed by it, like the clock lease in lease.ts). The pipeline plug-in
 * registers them; the worker (worker.ts) calls them around each batch it reads from a partition:
 * `prepare` with the batch's devices before announcing them (their stored pipeline state is read in
 * one query), `commit` after the announcements were handled and before the batch is acked (the state
 * they produced is written), `reset` when it takes partitions over (states are read again).
 */
export interface PipelineHooks {
  prepare(deviceUuids: readonly string[]): Promise<void>;
  commit(): Promise<void>;
  reset(): void;
}

const hooks = new WeakMap<object, PipelineHooks>();

export function registerPipelineHooks(storage: object, h: PipelineHooks): () => void {
  hooks.set(storage, h);
  return () => hooks.delete(storage);
}

export function pipelineHooks(storage: object): PipelineHooks | undefined {
  return hooks.get(storage);
}
