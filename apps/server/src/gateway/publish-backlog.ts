/**
 * Back-pressure from the consumers of stored records (pipeline engines, realtime hub) to the
 * transports. The gateway commits a frame, writes its ACK and then publishes the records; on the
 * in-process bus a publish resolves only once the pipeline and the hub handled it. Without a bound,
 * a gateway that stores faster than the pipeline handles kept every published batch (and its
 * promise chain) in memory: at 200 and 1,000 devices on PGlite the server fell further behind each
 * hour and its RSS passed 1.5 GB.
 *
 * Records count here from the moment their publish is queued until every publish of them settled.
 * While the count is at or over the limit, {@link PublishBacklog.ready} hands out a promise that
 * ingest awaits BEFORE storing the next frame: the frame is neither stored nor acknowledged yet, so
 * nothing stored is ever dropped; the device waits for its ACK (Teltonika and the others send the
 * next frame only after it) and a connection that keeps sending fills its buffer until tcp.ts pauses
 * reading. Work done meanwhile by the pipeline lowers the count and lets the waiting frames in, in
 * arrival order.
 */
export class PublishBacklog {
  private outstanding = 0;
  private waiters: (() => void)[] = [];
  private closed = false;
  /** Most records outstanding at once (for the benches and metrics). */
  peak = 0;
  /** Times a frame had to wait for the backlog to fall under the limit. */
  waits = 0;

  constructor(readonly limit: number) {}

  /** Records queued or being published now. */
  get size(): number {
    return this.outstanding;
  }

  /** `n` records are queued for publishing. */
  add(n: number): void {
    this.outstanding += n;
    if (this.outstanding > this.peak) this.peak = this.outstanding;
  }

  /** The publishes of `n` records added earlier: they leave the backlog once `done` settles. */
  settle(n: number, done: Promise<unknown>): void {
    const release = () => {
      this.outstanding -= n;
      this.wake();
    };
    done.then(release, release);
  }

  /** Undefined when there is room (the common case costs no promise), else resolves once there is. */
  ready(): Promise<void> | undefined {
    if (this.closed || this.outstanding < this.limit) return undefined;
    this.waits++;
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Lets every waiting frame go on (the gateway stops: its stop() runs what is queued). */
  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    // Under the limit every waiting frame goes on: the count can overshoot by at most one frame per
    // connection (each connection handles one frame at a time), which keeps the bound.
    if (!this.closed && this.outstanding >= this.limit) return;
    for (const w of this.waiters.splice(0)) w();
  }
}
