import { checkMessage } from '../../messages/check.js';
import { inboxMessage } from '../../messages/identity.js';
import type { InboxKinds } from '../../messages/kinds.js';
import { listedProblems, problemText, type Problem } from '../../messages/problems.js';
import { refusedFile, type FileMessages, type InboxFile, type ReadContext } from '../format.js';
import { readXmlFile, type XmlElement } from '../xml/parse.js';
import { OPENTRANS_NAMESPACE } from './write.js';
import type { OpenTransAnswer, OpenTransMessage, OpenTransOptions } from './answer.js';
import { dispatchNotificationAnswer } from './dispatchNotification.js';
import { orderResponseAnswer } from './orderResponse.js';
import { openTransSchemaProblems } from './schema.js';

export type OpenTransDocument = 'ORDERRESPONSE' | 'DISPATCHNOTIFICATION';

export type OpenTransRead =
  | { ok: true; document: OpenTransDocument; messages: OpenTransMessage[]; notes: string[] }
  | { ok: false; reason: string; problems: Problem[] };

const ANSWERS: Readonly<
  Record<OpenTransDocument, (root: XmlElement, options: OpenTransOptions) => OpenTransAnswer>
> = {
  ORDERRESPONSE: orderResponseAnswer,
  DISPATCHNOTIFICATION: dispatchNotificationAnswer,
};

const isAnswer = (name: string): name is OpenTransDocument => Object.hasOwn(ANSWERS, name);

/**
 * The path of the element xmllint names by its line: the last one that starts on or before
 * it, which is the element a schema message is about (`…/DISPATCHNOTIFICATION_ITEM[2]/QUANTITY`).
 */
export function elementPathAtLine(root: XmlElement, line: number): string {
  let path = root.name;
  let element = root;
  for (;;) {
    const candidates = element.children.filter((child) => child.line <= line);
    const next = candidates.at(-1);
    if (next === undefined) return path;
    const same = element.children.filter((child) => child.name === next.name);
    path += `/${next.name}${same.length > 1 ? `[${same.indexOf(next) + 1}]` : ''}`;
    element = next;
  }
}

/**
 * The messages our push-back is checked against (the same as every inbox file): an orderStatus
 * that fails them is a problem of the file; an ERP order that fails them only a note, so the
 * order's status still goes.
 */
function checked(answer: OpenTransAnswer, kinds: InboxKinds): OpenTransAnswer {
  const messages: OpenTransMessage[] = [];
  const notes = [...answer.notes];
  const problems = [...answer.problems];
  for (const message of answer.messages) {
    const check = checkMessage(kinds.formats[message.kind], message.body);
    if (check.ok) {
      messages.push(message);
      continue;
    }
    const what = check.problems.map(problemText).join('; ');
    if (message.kind === 'erpOrder') {
      notes.push(`direct order ${message.orderId}: no ERP order sent (${what})`);
    } else {
      problems.push({ message: `order ${message.orderId}: ${what}` });
    }
  }
  return { messages, notes, problems };
}

/**
 * An openTRANS 2.1 answer from the ERP, read safely (xml/parse.ts), checked against the official
 * schema and turned into push-back messages. A file is refused whole, with the schema's or our
 * reason, when anything in it is wrong; then no message of it is sent.
 */
export async function readOpenTrans(
  bytes: Uint8Array,
  kinds: InboxKinds,
  options: OpenTransOptions = {},
): Promise<OpenTransRead> {
  const read = readXmlFile(bytes, 'an openTRANS file');
  if (!read.ok) return read;
  const { root } = read;
  if (root.namespace !== OPENTRANS_NAMESPACE || !isAnswer(root.name)) {
    return refusedFile(
      `the root element is ${root.name} in namespace "${root.namespace}"; openTRANS answers are ` +
        `ORDERRESPONSE or DISPATCHNOTIFICATION in ${OPENTRANS_NAMESPACE}`,
    );
  }
  const schema = await openTransSchemaProblems(read.text);
  if (schema.length > 0) {
    const problems = schema.map((problem) =>
      problem.line === undefined
        ? problem
        : { ...problem, path: elementPathAtLine(root, problem.line) },
    );
    return refusedFile('not valid against the openTRANS 2.1 schema', listedProblems(problems));
  }
  const answer = checked(ANSWERS[root.name](root, options), kinds);
  if (answer.problems.length > 0) {
    return refusedFile(`the ${root.name} cannot be taken`, listedProblems(answer.problems));
  }
  return { ok: true, document: root.name, messages: answer.messages, notes: answer.notes };
}

/**
 * The inbox messages of one openTRANS file in `<inbox>/opentrans/`: one per order and kind, named
 * `<file>#<ORDER_ID>`. The orders of the mirror, when given, are those an answer must name.
 */
export async function openTransMessages(
  bytes: Uint8Array,
  file: InboxFile,
  ctx: ReadContext,
): Promise<FileMessages> {
  const options = {
    trackingLinkTemplate: ctx.options.trackingLinkTemplate,
    orderOf: ctx.orders?.byId,
  };
  const read = await readOpenTrans(bytes, ctx.kinds, options);
  if (!read.ok) return read;
  const messages = read.messages.map(({ kind, orderId, body }) =>
    inboxMessage(ctx.kinds.formats[kind], 'file', `${file.name}#${orderId}`, body),
  );
  return { ok: true, messages, notes: read.notes, badRows: [] };
}
