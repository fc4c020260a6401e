import { Command } from 'commander';
import { hashPassword } from '../../shared/passwordHash.js';
import { CliExit, EXIT } from '../exit.js';

/** Shorter passwords are refused: a console on a network is guessed at. */
const MIN_CHARS = 12;

/** Reads one line from a terminal without showing what is typed. */
function askHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.resume();
  input.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.removeListener('data', onData);
      process.stderr.write('\n');
      if (error === undefined) resolve(typed);
      else reject(error);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new CliExit(EXIT.failure, 'interrupted'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
      return undefined;
    };
    input.on('data', onData);
  });
}

/** The first line of what is piped in (`printf '%s' "$PW" | homecare-sync console password`). */
async function readPiped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? '';
}

async function passwordAction(): Promise<void> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await askHidden('Password: ');
    if ((await askHidden('Again: ')) !== password) {
      throw new CliExit(EXIT.failure, 'console password: the two passwords differ; nothing made');
    }
  } else {
    password = await readPiped();
  }
  if ([...password].length < MIN_CHARS) {
    throw new CliExit(
      EXIT.failure,
      `console password: a console password has at least ${MIN_CHARS} characters; nothing made`,
    );
  }
  process.stdout.write(`${await hashPassword(password)}\n`);
  process.stderr.write(
    'put it in the config as console.users.<name>.passwordHash, with role: operator or readOnly\n',
  );
}

/** `console password`: the hash of a console user's password, for the config. */
export function consoleCommand(): Command {
  const password = new Command('password')
    .description(
      'print the hash of a console password for console.users.<name>.passwordHash (asked twice on a terminal, else the first line of stdin)',
    )
    .action(passwordAction);
  return new Command('console')
    .description('the operator’s web console (console.enabled): its users’ password hashes')
    .addCommand(password);
}
