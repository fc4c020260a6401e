/** What the platform answered a done job's write (status, or why nothing was sent), for trace. */
export const name = 'what the platform answered a job';

export const sql = `
ALTER TABLE queue ADD COLUMN answer TEXT;
`;
