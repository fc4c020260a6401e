import * as inbox from '../../src/erp/messages/index.js';
import { PUSH_BACK_KINDS } from '../../src/pushback/index.js';

/** The push-back kinds as the daemon gives them to the inbox and the endpoint. */
export const KINDS = inbox.inboxKinds(PUSH_BACK_KINDS);

function kindNamed(name: string): inbox.InboxKind {
  const kind = KINDS.find(name);
  if (kind === undefined) throw new Error(`no inbox kind ${name}`);
  return kind;
}

/** `parseInboxBody` of the kind named `name`, as tests name kinds. */
export const parseInboxBody = (
  name: string,
  json: unknown,
  rules?: inbox.InboundRules,
): inbox.InboxParse => inbox.parseInboxBody(kindNamed(name), json, rules);

/** `checkMessage` of the kind named `name`. */
export const checkMessage = (
  name: string,
  json: unknown,
  unknownFields?: inbox.UnknownFields,
): inbox.MessageCheck => inbox.checkMessage(kindNamed(name), json, unknownFields);
