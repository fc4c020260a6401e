import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { plainQuery, query, RowShapeError, values } from '../../../src/store/statements.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
  store.db
    .prepare(
      `INSERT INTO checkpoints (resource, filter, watermark, updated_at)
       VALUES ('singleOrder', 'created', '2026-01-15T08:00:00.000Z', '2026-01-15T08:00:00.000Z')`,
    )
    .run();
});
afterEach(() => temp.cleanup());

/**
 * Rows are typed where they enter: a query names the columns its code reads and what each holds,
 * and a statement that does not answer them so is refused when it is first prepared, before any
 * row is read under a type it does not have.
 */
describe('a query holds its rows to the columns it names', () => {
  it('reads rows that answer the columns named', () => {
    const row = query<{ resource: string }, { watermark: string | null; updatedAt: string }>(
      store.db,
      'SELECT watermark, updated_at AS updatedAt FROM checkpoints WHERE resource = @resource',
      { watermark: 'text?', updatedAt: 'text' },
    ).get({ resource: 'singleOrder' });
    expect(row).toEqual({
      watermark: '2026-01-15T08:00:00.000Z',
      updatedAt: '2026-01-15T08:00:00.000Z',
    });
  });

  it('refuses a statement that does not answer a column its code reads', () => {
    const read = () =>
      plainQuery<{ watermark: string | null; lastRunAt: string | null }>(
        store.db,
        'SELECT watermark FROM checkpoints',
        { watermark: 'text?', lastRunAt: 'text?' },
      );
    expect(read).toThrow(RowShapeError);
    expect(read).toThrow(/reads lastRunAt, which the statement does not answer/);
  });

  it('refuses a column read as another type than its table declares', () => {
    const read = () =>
      plainQuery<{ last_run_ok: string | null }>(store.db, 'SELECT last_run_ok FROM checkpoints', {
        last_run_ok: 'text?',
      });
    expect(read).toThrow(/last_run_ok is INTEGER, its code reads text\?/);
  });

  it('reads a one-column query as its values, and refuses one of more columns', () => {
    const resources = values<object, string>(store.db, 'SELECT resource FROM checkpoints', 'text');
    expect(resources.all({})).toEqual(['singleOrder']);
    expect(() =>
      values<object, string>(store.db, 'SELECT resource, filter FROM checkpoints', 'text'),
    ).toThrow(/reads one column, the statement answers more/);
  });
});
