import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`, `npm run test:integration`, `npm test` both. The folder decides:
 * test/unit/ starts no process or server (pure logic, SQLite in a temp folder, files),
 * test/integration/ does (the simulator, a scripted HTTP server, the daemon's endpoint, the CLI
 * as a child process); test/unit/docs/testProjects.test.ts keeps each test in its folder.
 * Both mirror src/.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Both cores, as the CI machine has them: the integration tests mostly wait on child
    // processes and sockets, so two at a time take 7 minutes where one at a time took 10.
    maxWorkers: 2,
    projects: [
      // Threads start faster than forks (unit tests neither chdir nor exit, which threads
      // forbid), and without isolation each worker imports the sources once, not per file:
      // 16 s instead of 77 s on a busy 2-core machine. Safe while unit tests mock no module and
      // fake no global (the clock is injected); they pass in shuffled file order.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      // The integration tests start the CLI from a build made once (test/support/builtCli.ts).
      // Without isolation too: each fork imports the sources once, not for each of its files,
      // which took more of a run than the tests of some folders (test/integration/http: 38 s
      // instead of 60 s). Safe for the same reasons as above; every file ends what it started
      // (servers, daemons, stores) in its own after-hooks.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/builtCli.ts'],
          isolate: false,
        },
      },
    ],
  },
});
