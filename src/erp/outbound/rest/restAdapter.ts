import { scrubbedFromText, valuesToScrub, type Logger } from '../../../log/index.js';
import type { Clock } from '../../../shared/clock.js';
import { errorMessage } from '../../../shared/errors.js';
import type { DeliveryOutcome, ErpAdapter, OutboundRecord } from '../../adapter.js';
import { authHeaders, secretsOf } from './auth.js';
import { checkRestOptions } from './checks.js';
import { DEFAULT_REST_TIMEOUT_MS, type RestAdapterOptions } from './options.js';
import { outcomeOfAnswer, outcomeOfFailure, type Attempt } from './outcome.js';
import { askHead, createErpAgent, sendToErp, type ErpRequest } from './send.js';
import { archivalTargetOf, expandUrl, shownUrl, targetOf, type RestTarget } from './urls.js';

export interface RestAdapterDeps {
  clock: Clock;
  logger?: Logger;
}

export const NOT_SENT_REASON = 'not sent: an earlier record of this batch must be retried first';

/**
 * The key a real idempotent ERP de-duplicates on: one per record version, and one per archival
 * (`…:archived`), which must not pass for a repeat of the version that archived the record.
 */
export function idempotencyKey(item: OutboundRecord): string {
  const key = `${item.resource}:${item.id}:${item.version}`;
  return item.archival === undefined ? key : `${key}:archived`;
}

/** Where an item goes, and the config key that says so (for a reason naming it). */
function destinationOf(
  options: RestAdapterOptions,
  item: OutboundRecord,
): { target: RestTarget; targetPath: string } {
  const targetPath = `erp.rest.resources.${item.resource}`;
  return item.archival === undefined
    ? { target: targetOf(options, item.resource), targetPath }
    : { target: archivalTargetOf(options, item.resource), targetPath: `${targetPath}.archived` };
}

/** The enriched record, with its binary companions inlined as base64. */
export function requestBody(item: OutboundRecord): string {
  if (item.files === undefined || item.files.length === 0) return JSON.stringify(item.record);
  const files = item.files.map((file) => ({
    suffix: file.suffix,
    contentType: file.contentType,
    data: Buffer.from(file.data).toString('base64'),
  }));
  return JSON.stringify({ ...item.record, files });
}

/**
 * The request one record version makes, with the config key of its target; or its outcome: an
 * archival event nobody asked for counts as handed over, a URL the template cannot make is
 * refused. Pure: the hand-over sends what this answers, and `mapping preview` prints it.
 */
export function erpRequestOf(
  options: RestAdapterOptions,
  item: OutboundRecord,
): { request: ErpRequest; targetPath: string } | { outcome: DeliveryOutcome } {
  if (item.archival !== undefined && options.archivalEvents !== true) {
    return { outcome: { status: 'delivered' } };
  }
  const { target, targetPath } = destinationOf(options, item);
  let url: URL;
  try {
    const values = { resource: item.resource, _id: item.id, version: item.version };
    url = expandUrl(options.baseUrl, target.template, values);
  } catch (error) {
    const what = `${item.resource} ${item.id} (version ${item.version})`;
    const reason = `${what}: no URL can be made from ${targetPath}.url (${errorMessage(error)}); fix the template`;
    return { outcome: { status: 'rejected', reason } };
  }
  const headers = {
    accept: 'application/json',
    'content-type': 'application/json',
    'idempotency-key': idempotencyKey(item),
    ...authHeaders(options.auth),
  };
  return { request: { method: target.method, url, headers, body: requestBody(item) }, targetPath };
}

/**
 * The REST ERP adapter: each record version is its own request, carrying an idempotency key,
 * so a record sent again after a crash or a lost answer is not doubled by an ERP that honours
 * the key. Records of a batch go one at a time, in order; the first that must be retried holds
 * back the rest, so the ERP never sees a later version of an entity before an earlier one.
 */
export function createRestAdapter(options: RestAdapterOptions, deps: RestAdapterDeps): ErpAdapter {
  checkRestOptions(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REST_TIMEOUT_MS;
  const agent = createErpAgent(timeoutMs);
  const secrets = secretsOf(options.auth);

  async function deliverOne(item: OutboundRecord): Promise<DeliveryOutcome> {
    const made = erpRequestOf(options, item);
    if ('outcome' in made) return made.outcome;
    const { request: erpRequest, targetPath } = made;
    const attempt: Attempt = {
      resource: item.resource,
      id: item.id,
      version: item.version,
      label: `${erpRequest.method} ${shownUrl(erpRequest.url)}`,
      secrets: secrets.filter(scrubbedFromText),
      sentValues: valuesToScrub(item.record, [item.id, item.version]),
      targetPath,
    };
    try {
      const answer = await sendToErp(agent, erpRequest);
      return outcomeOfAnswer(attempt, answer, deps.clock.now());
    } catch (error) {
      return outcomeOfFailure(attempt, error, timeoutMs);
    }
  }

  function report(item: OutboundRecord, outcome: DeliveryOutcome, batch: number): void {
    const where = { resource: item.resource, id: item.id, version: item.version, batch };
    if (outcome.status === 'delivered') deps.logger?.debug(where, 'record delivered to the ERP');
    else deps.logger?.warn({ ...where, outcome: outcome.status }, outcome.reason);
  }

  async function deliver(records: readonly OutboundRecord[], batch: number) {
    const outcomes: DeliveryOutcome[] = [];
    let holding: Extract<DeliveryOutcome, { status: 'retry' }> | undefined;
    for (const item of records) {
      if (holding !== undefined) {
        outcomes.push({ ...holding, reason: NOT_SENT_REASON });
        continue;
      }
      const outcome = await deliverOne(item);
      report(item, outcome, batch);
      if (outcome.status === 'retry') holding = outcome;
      outcomes.push(outcome);
    }
    return outcomes;
  }

  /** Any answer below 500 means the ERP is there; its own auth is checked by each delivery. */
  async function probe(): Promise<void> {
    const where = `the ERP at ${shownUrl(new URL(options.baseUrl))}`;
    let status: number;
    try {
      status = await askHead(agent, options.baseUrl);
    } catch (error) {
      throw new Error(`${where} does not answer: ${errorMessage(error)}`, { cause: error });
    }
    if (status >= 500) throw new Error(`${where} answered HTTP ${status}`);
  }

  return { name: 'rest', batches: false, deliver, probe, close: () => agent.close() };
}
