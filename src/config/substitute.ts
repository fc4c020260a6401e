import { formatPath } from './errors.js';
import type { Problem } from './problems.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** `$${` is a literal `${`; `${NAME}` and `${NAME:-default}` are references; a lone `${` is a typo. */
const REFERENCE = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string value of `tree` (keys stay as written).
 * `:-` takes the default when the variable is unset or empty, as in a shell. Returns a new tree
 * and every problem, each naming the config path it was found at.
 */
export function substituteEnv(tree: unknown, env: Env): { value: unknown; problems: Problem[] } {
  const problems: Problem[] = [];
  const value = walk(tree, [], env, problems);
  return { value, problems };
}

function walk(node: unknown, path: PropertyKey[], env: Env, problems: Problem[]): unknown {
  if (typeof node === 'string') return substituteString(node, formatPath(path), env, problems);
  if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i], env, problems));
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, child]) => [key, walk(child, [...path, key], env, problems)]),
    );
  }
  return node;
}

function substituteString(text: string, at: string, env: Env, problems: Problem[]): string {
  return text.replace(REFERENCE, (match: string, inner: string | undefined) => {
    if (match === '$${') return '${';
    if (inner === undefined) {
      problems.push({ at, message: '"${" without a closing "}"; write $${ for a literal ${' });
      return match;
    }
    const separator = inner.indexOf(':-');
    const name = separator === -1 ? inner : inner.slice(0, separator);
    if (!NAME.test(name)) {
      problems.push({
        at,
        message: `"\${${inner}}" is not a variable reference; use \${NAME} or \${NAME:-default}`,
      });
      return match;
    }
    const fromEnv = env[name];
    if (separator !== -1)
      return fromEnv === undefined || fromEnv === '' ? inner.slice(separator + 2) : fromEnv;
    if (fromEnv !== undefined) return fromEnv;
    problems.push({
      at,
      message: `environment variable ${name} is not set; set it, or give a default with \${${name}:-value}`,
    });
    return match;
  });
}
