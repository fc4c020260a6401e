import type { Command } from 'commander';
import { backupStore, pruneBackups } from '../../housekeeping/index.js';
import { withStoreAsync } from '../context.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

/**
 * `backup <file>`: a consistent copy of the database while the daemon runs (SQLite's online
 * backup, mode 0600), then the backups past `retention.backups` days or beyond the newest
 * `retention.backupsKept` are removed.
 */
export function backupCommand(): Command {
  return commandWithConfig(
    'backup',
    'write a consistent copy of the database (mode 0600) while the daemon may run; old backups are pruned by retention.backups and retention.backupsKept',
  )
    .argument('<file>', 'the new backup file (never replaces an existing one)')
    .action(async (file: string, options: ConfigOption) => {
      await withStoreAsync(options, async (store, config) => {
        const made = await backupStore(store, file);
        process.stdout.write(`backup ${made.path}: ${made.bytes} bytes, mode 0600\n`);
        const { backups: days, backupsKept: kept } = config.retention;
        for (const gone of pruneBackups(store, { days, kept })) {
          process.stdout.write(`removed old backup ${gone}\n`);
        }
      });
    });
}
