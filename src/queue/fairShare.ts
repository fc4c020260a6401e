/**
 * Whose turn it is among the kinds with ready jobs, by their weights: pure arithmetic, so that a
 * backlog of one kind (a first pull's hand-overs of 300,000 articles) never holds the jobs of
 * another (a new order) for more than a pass.
 */

/** A kind's weight, from the config (`queue.weights`): how many turns it gets to another's. */
export type WeightOf = (kind: string) => number;

/** The turns of one channel: `next` names the kind among `kinds` whose turn it is. */
export interface Turns {
  next(kinds: readonly string[]): string | undefined;
}

/**
 * A smooth weighted round robin: each turn every kind that wants one gains its weight, the one
 * furthest ahead goes and gives up the sum. The heavier kinds go first and more often, and the
 * credit is kept from pass to pass, so that a kind of weight 1 beside kinds of weight 8 gets its
 * turn, however few turns a pass has.
 */
export function weightedTurns(weightOf: WeightOf): Turns {
  const credit = new Map<string, number>();
  const creditOf = (kind: string) => credit.get(kind) ?? 0;
  return {
    next(kinds) {
      let chosen: string | undefined;
      let total = 0;
      for (const kind of kinds) {
        total += weightOf(kind);
        credit.set(kind, creditOf(kind) + weightOf(kind));
        if (chosen === undefined || creditOf(kind) > creditOf(chosen)) chosen = kind;
      }
      if (chosen !== undefined) credit.set(chosen, creditOf(chosen) - total);
      return chosen;
    },
  };
}

/**
 * Up to `count` of the kinds' units (each kind's in their order), kind after kind as `turns`
 * names them among those with units left.
 */
export function takeTurns<T>(
  byKind: ReadonlyMap<string, readonly T[]>,
  turns: Turns,
  count: number,
): T[] {
  const left = new Map([...byKind].map(([kind, units]) => [kind, [...units]]));
  const taken: T[] = [];
  while (taken.length < count) {
    const kind = turns.next([...left].filter(([, units]) => units.length > 0).map(([k]) => k));
    const unit = kind === undefined ? undefined : left.get(kind)?.shift();
    if (unit === undefined) return taken;
    taken.push(unit);
  }
  return taken;
}
