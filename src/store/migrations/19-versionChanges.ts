/**
 * What each pulled version changed: the names of its fields that differ from the record the
 * mirror held before it, as JSON (`["deliveryAddress.street","status"]`), or `"new"` for a record
 * first seen; never values, so it stays when `forget` or retention drops the bodies. NULL where
 * no pull compared it: versions stored before this column, and the ones our own writes' answers
 * or a redelivery noted.
 */
export const name = 'the fields each pulled version changed';

export const sql = `
ALTER TABLE ledger ADD COLUMN changed TEXT CHECK (changed IS NULL OR json_valid(changed));
`;
