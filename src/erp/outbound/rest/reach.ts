import { authHeaders } from './auth.js';
import { DEFAULT_REST_TIMEOUT_MS, type RestAdapterOptions } from './options.js';
import { askHead, createErpAgent } from './send.js';
import { shownUrl } from './urls.js';

/** What the ERP answered one read-only request carrying the adapter's credentials. */
export interface ErpReach {
  status: number;
  /** The URL asked, without credentials or query, to name in a message. */
  url: string;
}

/**
 * A HEAD of the ERP's base URL with the adapter's credentials, through an agent like the
 * adapter's: reachable, and the credentials not refused (what a 401 or 403 would say). Writes
 * nothing; a failed connection rejects as undici raised it.
 */
export async function reachErp(options: RestAdapterOptions, timeoutMs?: number): Promise<ErpReach> {
  const agent = createErpAgent(timeoutMs ?? options.timeoutMs ?? DEFAULT_REST_TIMEOUT_MS);
  try {
    const status = await askHead(agent, options.baseUrl, authHeaders(options.auth));
    return { status, url: shownUrl(new URL(options.baseUrl)) };
  } finally {
    await agent.destroy();
  }
}
