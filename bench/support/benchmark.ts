/**
 * A figure with a target (issue 42's "Done when"): the run ends with a table of every one the
 * benchmarks it ran noted, side by side.
 */
export interface TargetFigure {
  figure: string;
  /** What was measured, with what it is compared against: "2.10 ms against 2.40 ms (0.88×)". */
  measured: string;
  target: string;
  /** undefined when it could not be judged (a peer not installed). */
  met: boolean | undefined;
}

/** One benchmark of `npm run bench`: prints its figures line by line, returns its final line. */
export interface Benchmark {
  name: string;
  description: string;
  run(print: (line: string) => void, note: (figure: TargetFigure) => void): Promise<string>;
}
