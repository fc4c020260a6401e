import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start-up, for packages that only some
 * configurations need (the XML and CSV outbox formats, pretty log lines) and whose callers are
 * synchronous. Async callers import our own modules with `import()` instead.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
