import { Gauge, type Registry } from 'prom-client';

/** One kept verdict of `check --online`, as the gauges read it. */
export interface KeptCheck {
  id: string;
  status: string;
  checkedAt: string;
}

/** A check's verdict as a number: a rule can alert on `> 0` (warn) or `== 2` (fail). */
const CHECK_VALUES: Readonly<Record<string, number>> = { skip: -1, pass: 0, warn: 1, fail: 2 };

/**
 * The last online check as gauges, read from the database at each scrape (a check may run beside
 * the daemon): a series per check with its verdict, and with the time it was given. A check no
 * longer run (a resource not pulled any more) has no series, not a stale one.
 */
export function registerOnlineChecks(registry: Registry, checks: () => readonly KeptCheck[]): void {
  new Gauge({
    name: 'homecare_sync_check_status',
    help: 'The last verdict of each point of check --online: -1 skip, 0 pass, 1 warn, 2 fail',
    labelNames: ['check'],
    registers: [registry],
    collect() {
      this.reset();
      for (const check of checks()) this.set({ check: check.id }, CHECK_VALUES[check.status] ?? -1);
    },
  });
  new Gauge({
    name: 'homecare_sync_check_timestamp_seconds',
    help: 'Unix time each point of check --online was last checked',
    labelNames: ['check'],
    registers: [registry],
    collect() {
      this.reset();
      for (const check of checks())
        this.set({ check: check.id }, Date.parse(check.checkedAt) / 1000);
    },
  });
}
