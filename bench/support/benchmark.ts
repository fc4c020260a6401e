/** One benchmark of `npm run bench`: prints its figures line by line, returns its final line. */
export interface Benchmark {
  name: string;
  description: string;
  run(print: (line: string) => void): Promise<string>;
}
