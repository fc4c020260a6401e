/** The exit codes of every command (documented in docs/readme/cli.md). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Ends a command with `exitCode` after printing `message` to stderr; no stack trace. */
export class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'CliExit';
  }
}
