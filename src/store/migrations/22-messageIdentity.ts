/**
 * ERP messages known by what they say (issue 36): `entity` is the business key of what a message
 * is about (its kind's descriptor gives it), `content` the SHA-256 of its canonical JSON, `stamp`
 * the ERP's own stamp; a message that repeats an earlier one under another name is kept as a row
 * of its own (`repeat_of` that one, no body), one refused as overtaken as `rejected`. Messages
 * kept before get their content from their body where it is still kept; they have no entity, so
 * none of them is the last of its entity (`sha256` stays as it was: their jobs' keys hold it).
 * Batch files are found by their number (`trace singleOrder_0000000057.csv`).
 */
export const name = 'ERP messages known by what they say';

export const sql = `
ALTER TABLE inbox_messages ADD COLUMN entity TEXT;
ALTER TABLE inbox_messages ADD COLUMN content TEXT;
ALTER TABLE inbox_messages ADD COLUMN stamp TEXT;
ALTER TABLE inbox_messages ADD COLUMN repeat_of INTEGER;
UPDATE inbox_messages SET content = canonical_sha256(body) WHERE body <> '';
CREATE INDEX inbox_messages_content ON inbox_messages (kind, content) WHERE content IS NOT NULL;
CREATE INDEX inbox_messages_entity ON inbox_messages (entity, kind, id) WHERE entity IS NOT NULL;
CREATE INDEX queue_batches ON queue (batch_id) WHERE batch_id IS NOT NULL;
`;
