import { isPlainObject } from '../../shared/objects.js';
import type { DroppedFields } from './droppedFields.js';
import { checkFields, withoutUnknown, type UnknownFields } from './fields.js';
import type { InboxKind } from './kinds.js';
import { listedProblems, problemText, type Problem } from './problems.js';
import { withoutStamp } from './stamp.js';

/** How messages from the ERP are taken, the same for the file inbox and `POST /erp/<kind>`. */
export interface InboundRules {
  unknownFields: UnknownFields;
  /** Told of the fields left out in `drop` mode (it logs each once). */
  dropped?: DroppedFields;
}

export const DEFAULT_INBOUND_RULES: InboundRules = { unknownFields: 'refuse' };

/** `stamp`: the ERP's stamp (`erpTimestamp`, stamp.ts), taken out of `body`. */
export type MessageCheck =
  | { ok: true; body: Record<string, unknown>; stamp?: string; dropped: string[] }
  | { ok: false; problems: Problem[] };

/**
 * Checks one message of `kind`: first the cheap walk over its fields; only a message that
 * passes it goes through the schemas, so a hostile one never reaches zod, whose cost grows with
 * every fault it words. The body comes without the dropped fields and the ERP's stamp, apart.
 */
export function checkMessage(
  kind: InboxKind,
  json: unknown,
  unknownFields: UnknownFields = 'refuse',
): MessageCheck {
  if (!isPlainObject(json)) {
    return { ok: false, problems: [{ path: '', message: 'the message must be a JSON object' }] };
  }
  const shape = kind.shape();
  const fields = checkFields(shape, json, unknownFields);
  if (fields.problems.size > 0) {
    // The rules across fields still run (a few lookups), so the ERP learns those at once too.
    for (const problem of kind.ruleProblems(json)) fields.problems.add(() => problem);
    return { ok: false, problems: fields.problems.listed() };
  }
  const known = fields.dropped.length === 0 ? json : (withoutUnknown(shape, json) as typeof json);
  const { body, stamp, problem } = withoutStamp(known);
  const problems = kind.schemaProblems(body);
  if (problem !== undefined) problems.unshift(problem);
  if (problems.length > 0) return { ok: false, problems: listedProblems(problems) };
  return { ok: true, body, ...(stamp === undefined ? {} : { stamp }), dropped: fields.dropped };
}

/** Every problem of `json` as a message of `kind` (the first ones and a count), by field path. */
export function inboxProblems(kind: InboxKind, json: unknown): Problem[] {
  const checked = checkMessage(kind, json);
  return checked.ok ? [] : checked.problems;
}

export type InboxParse =
  { ok: true; body: Record<string, unknown>; stamp?: string } | { ok: false; problems: string[] };

/** Validates one message from the ERP (inbox file or `POST /erp/<kind>`). */
export function parseInboxBody(
  kind: InboxKind,
  json: unknown,
  rules: InboundRules = DEFAULT_INBOUND_RULES,
): InboxParse {
  const checked = checkMessage(kind, json, rules.unknownFields);
  if (!checked.ok) return { ok: false, problems: checked.problems.map(problemText) };
  if (checked.dropped.length > 0) rules.dropped?.(kind.name, checked.dropped);
  const { body, stamp } = checked;
  return { ok: true, body, ...(stamp === undefined ? {} : { stamp }) };
}
