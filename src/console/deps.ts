import type { AlertEvent } from '../alerts/index.js';
import type { StorageFigures } from '../readModels/index.js';
import type { Config } from '../config/index.js';
import type { Readiness } from '../http/readiness.js';
import type { Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import type { HandOverNaming } from '../trace/index.js';

/** The platform's last outage, as the daemon saw it: since when, why, and when it ended. */
export interface Outage {
  since: string;
  problem: string;
  /** Undefined while it lasts. */
  until: string | undefined;
}

/** What the running daemon knows beyond its database, for the console's health page. */
export interface DaemonView {
  readiness: Readiness;
  lastOutage: Outage | undefined;
  lastAlert: AlertEvent | undefined;
}

/** What the console is built with, by the daemon (app/daemon.ts). */
export interface ConsoleDeps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** How the ERP was handed each version (trace/handOvers.ts), as the config's adapter names it. */
  handOvers: HandOverNaming;
  daemon: () => DaemonView;
  storage: () => Promise<StorageFigures>;
}
