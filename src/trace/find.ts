import type { Store } from '../store/index.js';
import type { KeyMatch } from './keys.js';
import { prefixMatches } from './prefix.js';
import { exactMatches } from './search.js';

/** What a search found: by the whole key, else by its start; `more` when the list was cut. */
export interface KeySearch {
  how: 'exact' | 'prefix';
  matches: KeyMatch[];
  more: boolean;
}

/**
 * The records a key names (the console's one box): those it names exactly (exactMatches), else
 * up to `limit` whose keys start with it (prefixMatches). Blanks around the key are not part of
 * it: a key pasted from a mail or a table often brings them.
 */
export function searchKey(store: Store, typed: string, limit: number): KeySearch {
  const key = typed.trim();
  if (key === '') return { how: 'exact', matches: [], more: false };
  const exact = exactMatches(store, key);
  if (exact.length > 0) {
    return { how: 'exact', matches: exact.slice(0, limit), more: exact.length > limit };
  }
  return { how: 'prefix', ...prefixMatches(store, key, limit) };
}
