import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The rooms of src/ and which may import which (docs/architecture.md): the stages import the
 * mechanisms and contract/, never each other (they hand over through SQLite); no mechanism
 * imports a stage. Decided on the import's path, so a new file is held to its folder's rule.
 */
const STAGES = ['pull', 'deliver', 'pushback'];
const MECHANISMS = ['contract', 'platform', 'store', 'queue', 'erp', 'config', 'log', 'shared'];
const importOf = (folder) => ({
  regex: `^(\\.\\./)+${folder}/|^\\./${folder}/`,
  message: `${folder}/ is a stage: see docs/architecture.md for which folder may import which`,
});
const rooms = [
  ...STAGES.map((stage) => ({
    files: [`src/${stage}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: STAGES.filter((other) => other !== stage).map(importOf) },
      ],
    },
  })),
  ...MECHANISMS.map((mechanism) => ({
    files: [`src/${mechanism}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: STAGES.map(importOf) }] },
  })),
];

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'data/**', 'erp/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...rooms,
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The benchmark's peers and the build's last step are plain Node.js programs, outside the
    // TypeScript project.
    files: ['bench/peers/**/*.{mjs,cjs}', 'scripts/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        module: 'writable',
      },
    },
  },
);
