import type { DefaultLayout, InboxSchema } from '../erp/messages/index.js';
import type { Handler } from '../queue/types.js';
import type { Store } from '../store/index.js';
import type { Body } from './payload.js';

/**
 * Everything about one kind of message the ERP sends back (its inbox folder, `POST /erp/<kind>`),
 * in the kind's own file under kinds/. The mechanisms are given what they need of it as data by
 * the composition root: erp/messages the name, schema and default layout, the queue the handler.
 */
export interface PushBackKind<Name extends string = string> {
  /** The kind's one spelling: its inbox folder, its route, its job kind in the queue table. */
  readonly name: Name;
  /** What a message may carry, checked by erp/messages before anything is stored. */
  readonly inbox: InboxSchema;
  /**
   * How the kind's folder reads a CSV file when `erp.file.inboxMapping.<kind>` does not say: a
   * mapping of the mapping language, mostly `CSV_BY_FIELD_NAMES` (the header names the message's
   * fields: `id;status;salesId;trackingInfo.trackingCode`). A config mapping replaces it.
   */
  readonly inboxMapping: DefaultLayout;
  /**
   * The business key of what a message is about, in the ERP's own terms where it has them
   * (`erpOrder:<salesId>`, `patient:<customerId>`, an order by `singleOrder:<id>` or
   * `singleOrder:salesId:<salesId>`), from the message alone. With the kind and the content it
   * is what a message is (a repeat is the same three again, whatever file or request brings
   * it); the rows of one key in one file are one message; a message older than the last one
   * handled for its key is overtaken (erp/messages/identity.ts).
   */
  businessKey(body: Body): string;
  /**
   * The queue key of the entity a message is about, where it is not the business key: jobs with
   * one key run one at a time, in the order they came; what must run after another job shares
   * its key (an order's status after its acknowledgement, the notes of one patient).
   */
  entityKey?(body: Body, store: Store): string;
  /** A message carries its entity's whole state, so a newer one replaces an older pending one. */
  readonly supersedes: boolean;
  /** Writes a message's job to the platform (and makes it once, see once/write.ts). */
  readonly handler: Handler;
}
