/**
 * The ledger keeps each version's record as pulled, so every version (not only the latest the
 * mirror holds) can be handed to the ERP; `waiting_for` says which references a version waits
 * for before it may go out enriched.
 */
export const name = 'ledger keeps each version and what it waits for';

export const sql = `
ALTER TABLE ledger ADD COLUMN json TEXT CHECK (json IS NULL OR json_valid(json));
ALTER TABLE ledger ADD COLUMN waiting_for TEXT;
`;
