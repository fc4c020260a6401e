import { Command } from 'commander';
import { stringify } from 'yaml';
import { loadConfig, maskSecrets } from '../../config/index.js';
import { inboxKinds } from '../../erp/messages/index.js';
import { PUSH_BACK_KINDS } from '../../pushback/index.js';
import { warnAbout } from '../context.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

/** `config check`: validates and prints the effective config, secrets masked. */
export function configCommand(): Command {
  const check = commandWithConfig(
    'check',
    'validate the config file and print the effective config (defaults filled in, secrets masked)',
  )
    .addHelpText(
      'after',
      '\nExit code 0 when the config is valid; 1 with every problem listed by its path.',
    )
    .action((options: ConfigOption) => {
      const { config, source, warnings } = loadConfig({
        path: options.config,
        env: process.env,
        cwd: process.cwd(),
        checkFolders: true,
        // The inbox's mappings are checked against the kinds' messages as well.
        inboxKinds: inboxKinds(PUSH_BACK_KINDS),
      });
      warnAbout(warnings);
      process.stdout.write(
        `# effective config from ${source} (secrets masked)\n${stringify(maskSecrets(config))}`,
      );
    });
  return new Command('config').description('work with the config file').addCommand(check);
}
