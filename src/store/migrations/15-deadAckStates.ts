/**
 * The acknowledgement's states 'pending' and 'done' are no longer written (the queue's job says
 * whether it was made), so nothing looks for 'pending' any more; old rows keep their value.
 */
export const name = 'acknowledgement states the queue tells';

export const sql = `
DROP INDEX ledger_ack_pending;
`;
