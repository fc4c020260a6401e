/**
 * Finding what retention.endedKeys lets go: reduced records by when their last version was
 * stored, handled ERP messages whose body is gone by when they were handled.
 */
export const name = 'keys of ended records';

export const sql = `
CREATE INDEX mirror_reduced ON mirror (updated_at) WHERE json ->> '$._reduced' IS NOT NULL;
CREATE INDEX inbox_messages_keys ON inbox_messages (processed_at) WHERE body = '';
`;
