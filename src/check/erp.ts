import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { restAdapterOptions } from '../deliver/adapter.js';
import { folderProblem } from '../config/index.js';
import { nodeOutboxFs } from '../erp/outbound/file/atomicWrite.js';
import { folderWritable } from '../erp/outbound/file/probe.js';
import { errorMessage } from '../shared/errors.js';
import type { CheckContext } from './context.js';
import type { CheckDefinition } from './runner.js';
import { roomVerdict } from './space.js';
import { systemStatfs } from './system.js';
import { fail, pass, warn, type Outcome } from './verdict.js';

type Folder = 'outbox' | 'inbox';

const WHO_USES: Record<Folder, string> = {
  outbox: 'the ERP reads the files the daemon puts there',
  inbox: 'the ERP puts its answers there',
};

async function folderOutcome(context: CheckContext, folder: Folder): Promise<Outcome> {
  const path = resolve(context.deps.cwd, context.config.erp.file[folder]);
  const key = `erp.file.${folder}`;
  // Not there or not reachable: folderProblem looks at why, and the verdict says it.
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) {
    const problem = folderProblem(path, path);
    if (problem !== undefined)
      return fail(problem, `create it, or set ${key} to a folder that exists`);
    return warn(
      `${path} does not exist yet; the daemon creates it at its start`,
      `create it now with the rights the ERP needs, so that the ERP's side sees the same folder (${WHO_USES[folder]})`,
    );
  }
  if (!found.isDirectory()) return fail(`${path} is not a folder`, `set ${key} to a folder`);
  try {
    await folderWritable(nodeOutboxFs, path, 'homecare-sync-check');
  } catch (error) {
    return fail(errorMessage(error), `give the user homecare-sync runs as write access to ${path}`);
  }
  const statfs = context.deps.statfs ?? systemStatfs;
  const { freeBytes } = await statfs(path);
  const seen = `${path} takes files (a hidden probe file written, renamed and removed)`;
  return roomVerdict(`${key} (${path})`, freeBytes, seen);
}

/** The file drop's outbox exists, takes a file the way hand-overs put them, and has room. */
export const outboxCheck: CheckDefinition<CheckContext> = {
  id: 'erp.outbox',
  run: (context) => folderOutcome(context, 'outbox'),
};

/** The inbox the same: the daemon moves the ERP's files within it (.processing, .archive). */
export const inboxCheck: CheckDefinition<CheckContext> = {
  id: 'erp.inbox',
  run: (context) => folderOutcome(context, 'inbox'),
};

function reachOutcome(status: number, url: string, withAuth: boolean): Outcome {
  const credentials = withAuth
    ? 'the credentials of erp.rest.auth'
    : 'no credentials (erp.rest.auth is not set)';
  if (status === 401 || status === 403) {
    return fail(
      `the ERP at ${url} refused ${credentials}: HTTP ${status} to HEAD`,
      'check erp.rest.auth (type, token, user, password) with the ERP team',
    );
  }
  if (status >= 500) {
    return fail(
      `the ERP at ${url} answered HTTP ${status} to HEAD`,
      'the ERP has a problem: ask the ERP team',
    );
  }
  return pass(
    `the ERP at ${url} answers (HTTP ${status} to HEAD with ${credentials}; not refused)`,
  );
}

/** The REST ERP is reachable and does not refuse the credentials, by one HEAD request. */
export const restCheck: CheckDefinition<CheckContext> = {
  id: 'erp.rest',
  async run(context) {
    const options = restAdapterOptions(context.config);
    // Loaded only for a REST config, as the daemon loads the adapter (deliver/adapter.ts).
    const { reachErp } = await import('../erp/outbound/rest/index.js');
    try {
      const { status, url } = await reachErp(
        options,
        Math.min(context.deps.limitMs, options.timeoutMs ?? context.deps.limitMs),
      );
      return reachOutcome(status, url, options.auth !== undefined);
    } catch (error) {
      return fail(
        `the ERP at ${new URL(options.baseUrl).origin} cannot be reached: ${errorMessage(error)}`,
        'check erp.rest.baseUrl, and that the ERP is up and reachable from here (firewall, DNS)',
      );
    }
  },
};
