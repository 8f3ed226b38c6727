import { describe, expect, it } from 'vitest';
import { ToastQueue } from './toasts';

function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  return {
    schedule: (fn: () => void, ms: number) => {
      const id = next++;
      pending.set(id, { fn, ms });
      return id as unknown as ReturnType<typeof setTimeout>;
    },
    cancel: (id: ReturnType<typeof setTimeout>) => void pending.delete(id as unknown as number),
    fire: () => {
      for (const [id, t] of [...pending]) {
        pending.delete(id);
        t.fn();
      }
    },
    pending,
  };
}

describe('ToastQueue', () => {
  it('shows a toast with the 5000 ms default and the kind appearance from core', () => {
    const timers = manualTimers();
    const queue = new ToastQueue(timers.schedule, timers.cancel);
    const id = queue.show({ kind: 'error', message: 'Boom' });
    expect(id).not.toBeNull();
    expect(queue.getSnapshot()[0]).toMatchObject({
      kind: 'error',
      icon: 'error',
      tone: 'negative',
      timeout: 5000,
    });
    expect([...timers.pending.values()][0]?.ms).toBe(5000);
    timers.fire();
    expect(queue.getSnapshot()).toEqual([]);
  });

  it.each([
    [{ message: '' }],
    [{ message: '   ', caption: '' }],
    [{ message: 'x', timeout: -1 }],
    [{ message: 'x', timeout: Number.NaN }],
  ])('refuses %o', (input) => {
    const queue = new ToastQueue();
    expect(queue.show(input)).toBeNull();
    expect(queue.getSnapshot()).toEqual([]);
  });

  it('a caption alone is enough; timeout 0 stays until dismissed', () => {
    const timers = manualTimers();
    const queue = new ToastQueue(timers.schedule, timers.cancel);
    const id = queue.show({ caption: 'only caption', timeout: 0 }) as number;
    expect(timers.pending.size).toBe(0);
    queue.dismiss(id);
    expect(queue.getSnapshot()).toEqual([]);
  });

  it('notifies subscribers', () => {
    const queue = new ToastQueue();
    let calls = 0;
    const off = queue.subscribe(() => (calls += 1));
    const id = queue.show({ message: 'a', timeout: 0 }) as number;
    queue.dismiss(id);
    queue.dismiss(id);
    off();
    expect(calls).toBe(2);
  });
});
