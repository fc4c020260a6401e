import type { Inbox, ScanReport } from '../erp/inbox/index.js';
import type { InboxKind, InboxMessage } from '../erp/adapter.js';
import type { Metrics } from '../http/metrics.js';
import type { InboundResult } from '../http/server.js';
import type { Logger } from '../log/index.js';

/**
 * Logs and counts what a scan did with each file: a rejected or partly rejected file is a
 * warning naming its report, a hand-off that failed (tried again next scan) too. Accepted
 * messages are logged and counted where they are queued. Entries that are no kind: named once.
 */
export function logScan(logger: Logger, metrics: Metrics, report: ScanReport): void {
  for (const result of report.files) {
    const { kind, file } = result;
    if (result.status === 'rejected') {
      metrics.inbound(kind, 'file', 'rejected');
      logger.warn(
        { kind, file, movedTo: result.movedTo, report: result.report, problems: result.problems },
        `inbox: ${kind}/${file} rejected: ${result.reason}; see ${result.report}`,
      );
    } else if (result.status === 'partial') {
      metrics.inbound(kind, 'file', 'rejected');
      logger.warn(
        { kind, file, accepted: result.accepted, report: result.report, problems: result.problems },
        `inbox: ${kind}/${file}: ${result.problems.length} bad row(s) left out; see ${result.report}`,
      );
    } else if (result.status === 'failed') {
      logger.warn({ kind, file }, `inbox: ${kind}/${file}: ${result.reason}`);
    }
  }
  for (const name of report.unknown) {
    logger.warn({ name }, `inbox: ${name} is no inbox kind; it is left alone`);
  }
}

/** The inbox with every scan logged and counted. */
export function observedInbox(inbox: Inbox, logger: Logger, metrics: Metrics): Inbox {
  return {
    async scanOnce() {
      const report = await inbox.scanOnce();
      logScan(logger, metrics, report);
      return report;
    },
  };
}

type HttpInbound = (
  kind: InboxKind,
  body: unknown,
  idempotencyKey: string | undefined,
) => InboundResult;

/** POST /erp/<kind> with refused bodies counted; accepted ones are counted where they are queued. */
export function countedInbound(inbound: HttpInbound, metrics: Metrics): HttpInbound {
  return (kind, body, idempotencyKey) => {
    const result = inbound(kind, body, idempotencyKey);
    if (result.status === 'invalid') metrics.inbound(kind, 'http', 'rejected');
    return result;
  };
}

/** The hand-off of an ERP message (file or HTTP), with each one counted by how it ended. */
export function countedAccept(
  accept: (message: InboxMessage) => 'accepted' | 'repeat',
  metrics: Metrics,
): (message: InboxMessage) => 'accepted' | 'repeat' {
  return (message) => {
    const result = accept(message);
    metrics.inbound(message.kind, message.source, result);
    return result;
  };
}
