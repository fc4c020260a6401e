import { MAX_LISTED_PROBLEMS, MAX_NAME_CHARS } from './bounds.js';
import type { Problem } from './problems.js';

export type PathPart = string | number;

const shortName = (name: string) =>
  name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}…` : name;

/** `erpOrderedArticleLines.0.quantity`, each name cut to a readable length. */
export const pathText = (path: readonly PathPart[]) =>
  path.map((part) => (typeof part === 'number' ? String(part) : shortName(part))).join('.');

/** The path of a field whatever its list entry: `erpOrderedArticleLines.*.quantity`. */
export const fieldPathText = (path: readonly PathPart[]) =>
  path.map((part) => (typeof part === 'number' ? '*' : shortName(part))).join('.');

const closingLine = (more: number): Problem => ({ message: `… and ${more} more problems` });

/**
 * The first `MAX_LISTED_PROBLEMS` problems and the number of all. A problem is made only when
 * it is listed: naming the rest (paths, "did you mean") would cost as much as the message.
 */
export class ProblemList {
  private readonly kept: Problem[] = [];
  private count = 0;

  add(make: () => Problem): void {
    this.count += 1;
    if (!this.full) this.kept.push(make());
  }

  /** Whether a further problem is only counted: then it need not even be described. */
  get full(): boolean {
    return this.kept.length >= MAX_LISTED_PROBLEMS;
  }

  /** Counts a problem that is not listed. */
  countMore(): void {
    this.count += 1;
  }

  get size(): number {
    return this.count;
  }

  /** The listed problems, with `… and N more problems` when some were only counted. */
  listed(): Problem[] {
    const more = this.count - this.kept.length;
    return more > 0 ? [...this.kept, closingLine(more)] : [...this.kept];
  }
}

/** `problems` cut to the listed ones and the closing line. */
export function listedProblems(problems: readonly Problem[]): Problem[] {
  const list = new ProblemList();
  for (const problem of problems) list.add(() => problem);
  return list.listed();
}
