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
      // Threads start faster than forks; unit tests neither chdir nor exit, which threads forbid.
      { extends: true, test: { name: 'unit', include: unit, pool: 'threads' } },
      { extends: true, test: { name: 'integration', include: integration } },
    ],
  },
});
