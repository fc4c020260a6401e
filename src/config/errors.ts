import { SetupError } from '../shared/errors.js';

/** The config file cannot be used; `problems` lists every one found, each as `<path>: <message>`. */
export class ConfigError extends SetupError {
  readonly source: string;

  constructor(source: string, problems: readonly string[]) {
    super(`${headline(source, problems)}\n  ${problems.join('\n  ')}`, problems, {
      code: 'CONFIG',
      hint: 'fix each listed problem, then run `homecare-sync config check`',
    });
    this.source = source;
  }

  /** The first line of the message, printed above the problem list. */
  get headline(): string {
    return headline(this.source, this.problems);
  }
}

function headline(source: string, problems: readonly string[]): string {
  return `config ${source} has ${problems.length} problem(s):`;
}

/** `platform.paths.postalCode`, `sync.resources.singleOrder.statuses[1]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(top level)' : text;
}
