import type { Command } from 'commander';
import type { PersonalValues } from '../../log/index.js';

/**
 * What the commands that print platform or ERP text share about personal values: masked by
 * default with the one masking (maskPersonal, maskedJob), shown with `--show-personal`, and
 * every look kept as the operator action `showPersonal` (recordShowPersonal).
 */

/** `--show-personal`, worded alike on every command that has it. */
export function withShowPersonal(command: Command, what: string): Command {
  return command.option(
    '--show-personal',
    `show ${what} as stored instead of masked; recorded as an operator action (who, when, from which host)`,
  );
}

export const personalOf = (options: { showPersonal?: boolean }): PersonalValues =>
  options.showPersonal === true ? 'shown' : 'masked';
