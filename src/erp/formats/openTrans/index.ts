/**
 * openTRANS 2.1: the outbox writes single and direct orders as ORDER documents (format `xml`
 * with `openTrans: true`); the inbox reads ORDERRESPONSE and DISPATCHNOTIFICATION answers from a
 * folder of their own (`<inbox>/opentrans/`), checked against the official schema (schema.ts,
 * xsd/) and turned into order status and ERP order messages (orderResponse.ts,
 * dispatchNotification.ts).
 */
import type { FileFormat } from '../format.js';
import { openTransMessages } from './read.js';
import { openTransFile } from './write.js';

export const OPENTRANS_FORMAT: FileFormat = {
  name: 'opentrans',
  batches: false,
  write: openTransFile,
  read: openTransMessages,
};
