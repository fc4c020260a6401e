/**
 * Failed logins counted per client address and per user name: after `attempts` within
 * `windowMs` the next login from that address, or for that user, is refused until the oldest
 * failure leaves the window. Kept in memory, bounded: a flood of new addresses forgets the
 * oldest first.
 */
export class LoginLimit {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly attempts: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until a login for `keys` is taken again; 0 when it is taken now. */
  waitMs(keys: readonly string[], now: number): number {
    let wait = 0;
    for (const key of keys) {
      const recent = this.recent(key, now);
      if (recent.length < this.attempts) continue;
      const oldest = recent[recent.length - this.attempts] ?? now;
      wait = Math.max(wait, oldest + this.windowMs - now);
    }
    return wait;
  }

  failed(keys: readonly string[], now: number): void {
    for (const key of keys) {
      const recent = [...this.recent(key, now), now];
      this.failures.delete(key);
      this.failures.set(key, recent.slice(-this.attempts));
    }
    while (this.failures.size > this.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  succeeded(keys: readonly string[]): void {
    for (const key of keys) this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => now - at < this.windowMs);
  }
}
