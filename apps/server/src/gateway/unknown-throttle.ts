/**
 * Throttle of unknown-IMEI attempts per remote address (issue 19, gateway hygiene). A misconfigured
 * installer's device or a scanner retries an unregistered IMEI in a tight loop; every attempt used to
 * cost a decode and a database write. Per address, the first `limit` refusals of a minute are handled
 * normally (recorded on the super admins' unknown-devices list, answered with the protocol's refusal);
 * after that, an unknown IMEI from the address is closed at once, unanswered and not recorded on its
 * own, until the minute is over. The address itself is never blocked: mobile carriers put thousands of
 * devices behind one address (carrier-grade NAT), and a registered device next to a misconfigured one
 * must still be served. What was dropped is not lost from the list: the count is added to the
 * address's last refused IMEI when its window ends ({@link drain}).
 */
export class UnknownThrottle {
  private readonly windows = new Map<
    string,
    { start: number; refused: number; dropped: number; imei: string; protocol: string }
  >();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** True when the address has used up its refusals of this window (nothing is counted). */
  blocked(address: string): boolean {
    const w = this.windows.get(address);
    return !!w && this.clock() - w.start < this.windowMs && w.refused >= this.limit;
  }

  /** Counts one refusal; false when it is over the limit (do not record it individually). */
  refused(address: string, imei: string, protocol: string): boolean {
    const t = this.clock();
    let w = this.windows.get(address);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, refused: 0, dropped: 0, imei, protocol };
      this.windows.set(address, w);
    }
    w.imei = imei;
    w.protocol = protocol;
    w.refused += 1;
    if (w.refused <= this.limit) return true;
    w.dropped += 1;
    return false;
  }

  /** Ended windows with dropped attempts (all of them with `all`): removed and returned for recording. */
  drain(all = false): { address: string; imei: string; protocol: string; dropped: number }[] {
    const t = this.clock();
    const out: { address: string; imei: string; protocol: string; dropped: number }[] = [];
    for (const [address, w] of this.windows) {
      if (!all && t - w.start < this.windowMs) continue;
      this.windows.delete(address);
      if (w.dropped > 0) out.push({ address, imei: w.imei, protocol: w.protocol, dropped: w.dropped });
    }
    return out;
  }
}
