import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testProjects } from './test/projects.js';

const { unit, integration } = testProjects(fileURLToPath(new URL('.', import.meta.url)));

/** `npm run test:unit` (no process or server started), `npm run test:integration`, `npm test` both. */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      // Threads start faster than forks (unit tests neither chdir nor exit, which threads
      // forbid), and without isolation each worker imports the sources once, not per file:
      // 16 s instead of 77 s on a busy 2-core machine. Safe while unit tests mock no module and
      // fake no global (the clock is injected); they pass in shuffled file order.
      {
        extends: true,
        test: { name: 'unit', include: unit, pool: 'threads', isolate: false },
      },
      // The integration tests start the CLI from a build made once (test/support/builtCli.ts).
      {
        extends: true,
        test: {
          name: 'integration',
          include: integration,
          globalSetup: ['test/support/builtCli.ts'],
        },
      },
    ],
  },
});
