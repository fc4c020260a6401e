/**
 * Interface: the `homecare-sync` commands (commander), thin: parse, call the composition root or a
 * mechanism, print.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/index.js';
import { SetupError } from '../shared/errors.js';
import { packageVersion } from '../shared/version.js';
import { backupCommand } from './commands/backup.js';
import { checkCommand } from './commands/check.js';
import { checkpointCommand } from './commands/checkpoint.js';
import { configCommand } from './commands/config.js';
import { consoleCommand } from './commands/consolePassword.js';
import { demoCommand } from './commands/demo.js';
import { forgetCommand } from './commands/forget.js';
import { inboxCommand } from './commands/inbox.js';
import { mappingCommand } from './commands/mapping.js';
import { pauseCommand, resumeCommand } from './commands/pause.js';
import { queueCommand } from './commands/queue.js';
import { redeliverCommand } from './commands/redeliver.js';
import { traceCommand } from './commands/trace.js';
import { runCommand } from './commands/run.js';
import { simulatorCommand } from './commands/simulator.js';
import { statusCommand } from './commands/status.js';
import { syncCommand } from './commands/sync.js';
import { CliExit, EXIT } from './exit.js';

export function buildProgram(): Command {
  const program = new Command('homecare-sync')
    .description("syncs a homecare platform's API with a medical supplier's ERP")
    .version(packageVersion(), '-V, --version')
    .addCommand(runCommand())
    .addCommand(syncCommand())
    .addCommand(statusCommand())
    .addCommand(queueCommand())
    .addCommand(checkpointCommand())
    .addCommand(redeliverCommand())
    .addCommand(traceCommand())
    .addCommand(mappingCommand())
    .addCommand(inboxCommand())
    .addCommand(pauseCommand())
    .addCommand(resumeCommand())
    .addCommand(backupCommand())
    .addCommand(forgetCommand())
    .addCommand(configCommand())
    .addCommand(consoleCommand())
    .addCommand(checkCommand())
    .addCommand(simulatorCommand())
    .addCommand(demoCommand())
    .addHelpText('after', '\nExit codes: 0 ok, 1 failure (including a bad config), 2 usage.');
  applyToAll(program, (command) =>
    command.exitOverride().showHelpAfterError('(add --help for usage)'),
  );
  return program;
}

/** Commands added with addCommand do not inherit settings; these must hold for every one. */
function applyToAll(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const sub of command.commands) applyToAll(sub, apply);
}

/** Parses `argv` (as process.argv), runs the command, and returns the exit code. */
export async function runProgram(
  argv: readonly string[],
  writeError: (text: string) => void,
): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    return report(error, writeError);
  }
}

const HELP_CODES: ReadonlySet<string> = new Set([
  'commander.help',
  'commander.helpDisplayed',
  'commander.version',
]);

function report(error: unknown, writeError: (text: string) => void): number {
  if (error instanceof CommanderError) {
    // Commander has printed the message or the help already. Help asked for (`--help`,
    // `help run`) exits 0; help shown because a subcommand is missing exits with 1 there.
    const shown = HELP_CODES.has(error.code) && error.exitCode === 0;
    return shown ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof CliExit) {
    writeError(`${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof SetupError) {
    writeError(`${setupHeadline(error)}\n${error.problems.map((p) => `  ${p}\n`).join('')}`);
    return EXIT.failure;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  writeError(`homecare-sync failed: ${text}\n`);
  return EXIT.failure;
}

function setupHeadline(error: SetupError): string {
  if (error instanceof ConfigError) return error.headline;
  return error.problems.length > 0 ? `${error.message}:` : error.message;
}
