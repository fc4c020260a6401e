import type { z } from 'zod';

/** One thing wrong with an inbox message: where (path, CSV row, XML line) and what. */
export interface Problem {
  path?: string;
  row?: number;
  /** Line of the file (XML; a mapped CSV file). */
  line?: number;
  /** The CSV column, by its header name or its number from 1 (a mapped CSV file). */
  column?: string;
  /** The element's path (a mapped XML file): `Auftraege/Auftrag[2]/Status`. */
  element?: string;
  message: string;
}

export function zodProblems(error: z.ZodError): Problem[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** `erpOrderedArticleLines.0.quantity: expected number`, or the bare message at the top level. */
export function problemText(problem: Problem): string {
  const where = [
    problem.row === undefined ? undefined : `row ${problem.row}`,
    problem.line === undefined ? undefined : `line ${problem.line}`,
    problem.column === undefined ? undefined : `column ${problem.column}`,
    problem.element,
    problem.path === undefined || problem.path === '' ? undefined : problem.path,
  ].filter((part) => part !== undefined);
  return where.length === 0 ? problem.message : `${where.join(', ')}: ${problem.message}`;
}

export function uniqueProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = problemText(problem);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
