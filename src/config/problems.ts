/** One thing wrong with the config, at a dotted path such as `platform.apiKey`. */
export interface Problem {
  at: string;
  message: string;
}

export function problemText(problem: Problem): string {
  return `${problem.at}: ${problem.message}`;
}

/**
 * Drops problems at paths an earlier stage already reported (or below them), so an unset
 * `${VAR}` in `http.port` is not reported a second time as "expected number".
 */
export function withoutRepeats(
  problems: readonly Problem[],
  reported: readonly Problem[],
): Problem[] {
  const paths = reported.map((p) => p.at);
  return problems.filter(
    (p) =>
      !paths.some((at) => p.at === at || p.at.startsWith(`${at}.`) || p.at.startsWith(`${at}[`)),
  );
}
