/**
 * The rooms of src/ and which may import which (docs/architecture.md), checked by
 * `npm run lint` in CI: the stages import the mechanisms and contract/, never each other (they
 * hand over through SQLite); no mechanism imports a stage; no stage or mechanism imports an
 * interface; the store imports neither housekeeping nor the read models; only the commands and
 * the demo import the composition root (app/), which stands above the operations and interfaces
 * it composes; and no file reaches itself again through its imports. Decided on each import's
 * resolved path, so a new file is held to its folder's rule.
 */
const STAGES = 'pull|deliver|pushback';
const MECHANISMS =
  'contract|platform|store|housekeeping|readModels|trace|queue|erp|config|log|shared';
/** What uses the store's tables over time or to show them: the store never imports them. */
const STORE_USERS = 'housekeeping|readModels|trace';
/**
 * Interfaces face the user (commands, the endpoint, the online check, the console), and the
 * operations serve them (what an operator does, once for all of them): nothing below uses either.
 */
const INTERFACES = 'cli|http|check|console|operations';

module.exports = {
  forbidden: [
    {
      name: 'stages-apart',
      comment:
        'A stage imports mechanisms and contract/, never another stage: see docs/architecture.md',
      severity: 'error',
      from: { path: `^src/(${STAGES})/` },
      to: { path: `^src/(${STAGES})/`, pathNot: '^src/$1/' },
    },
    {
      name: 'mechanisms-below-stages',
      comment: 'A mechanism never imports a stage: see docs/architecture.md',
      severity: 'error',
      from: { path: `^src/(${MECHANISMS})/` },
      to: { path: `^src/(${STAGES})/` },
    },
    {
      name: 'interfaces-on-top',
      comment:
        'A stage or a mechanism never imports an interface (cli/, http/, check/, console/) or operations/: see docs/architecture.md',
      severity: 'error',
      from: { path: `^src/(${STAGES}|${MECHANISMS})/` },
      to: { path: `^src/(${INTERFACES})/` },
    },
    {
      name: 'store-below-its-users',
      comment:
        'The store holds the tables and their statements; housekeeping and the read models use them, never the other way: see docs/architecture.md',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: `^src/(${STORE_USERS})/` },
    },
    {
      name: 'root-on-top',
      comment:
        'The composition root (app/) builds and runs everything; only the commands (cli/) and the demo start it, nothing else imports it: see docs/architecture.md',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app|cli|demo)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'no-circle',
      comment: 'No file may reach itself again through its imports, type imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
