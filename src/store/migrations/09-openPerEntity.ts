/**
 * The open jobs of each entity, so that whether a job is first in line for its entity is one
 * look-up (readyJobs) however many done jobs the entity has behind it: an article the ERP sends
 * every day has hundreds after a year, and reading them all for each job made a pass 25 ms at
 * 100 per entity.
 */
export const name = 'open jobs of each entity';

export const sql = `
CREATE INDEX queue_open ON queue (entity_key, id) WHERE state IN ('pending', 'running');
`;
