import type { ConsoleRole } from '../config/consoleSchema.js';
import type { Operator } from '../store/index.js';

/** Who is looking: a configured user, or a token of a role. */
export interface Viewer {
  name: string;
  role: ConsoleRole;
}

export const canAct = (viewer: Viewer): boolean => viewer.role === 'operator';

/**
 * The operator the audit keeps for a console action: `console:<name>` and the address the
 * request came from (as the CLI keeps the system user and the host).
 */
export const operatorOf = (viewer: Viewer, address: string | undefined): Operator => ({
  osUser: `console:${viewer.name}`,
  host: address ?? 'unknown address',
});
