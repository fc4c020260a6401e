import { Command } from 'commander';
import { renderHandOver, type RenderedHandOver } from '../../operations/handOverPreview.js';
import type { ResourceName } from '../../contract/index.js';
import { mirroredHandOver, type MirroredHandOver } from '../../deliver/preview.js';
import type { OutboundRecord } from '../../erp/adapter.js';
import { maskPersonal, type PersonalValues } from '../../log/index.js';
import { recordShowPersonal, type Store } from '../../store/index.js';
import { withStoreIfThere } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { recordCommand, type ConfigOption } from '../options.js';
import { personalOf, withShowPersonal } from './personal.js';

/** Why there is nothing to preview, and what to do. */
function nothingToShow(
  resource: ResourceName,
  id: string,
  found: Exclude<MirroredHandOver, { found: 'record' }>,
): string {
  const subject = `${resource} ${id}`;
  switch (found.found) {
    case 'none':
      return `mapping preview: ${subject} is not in the mirror; pull it first with \`homecare-sync sync ${resource} --once\`, or look for it with \`homecare-sync trace ${id}\``;
    case 'reduced':
      return `mapping preview: ${subject} (${found.version}): since ${found.since} homecare-sync keeps only its ids, stamps and status (retention or \`forget\`), so there is nothing to show; its next version is pulled whole`;
    case 'waiting': {
      const missing = found.missing.map((ref) => `${ref.resource} ${ref.id}`).join(', ');
      return `mapping preview: ${subject} (${found.version}) refers to ${missing}, not in the mirror; the hand-over fetches them from the platform first. Pull them (\`homecare-sync sync <resource> --once\`) and preview again`;
    }
  }
}

type Shown = Exclude<RenderedHandOver, { refused: string }>;

/** What the hand-over is, and exactly what goes to the ERP. */
interface Preview {
  /** Where it goes and what to know about it: for stderr, so stdout holds the content alone. */
  notes: string[];
  /** The file's bytes as the ERP reads them (a Windows-1252 CSV stays so), or the request. */
  content: Uint8Array | string;
}

function previewOf(shown: Shown, withFiles: boolean): Preview {
  const files = withFiles
    ? ['its files, fetched from the platform at the hand-over, go with it: not shown here']
    : [];
  if (shown.adapter === 'rest') {
    const { method, url, headers, body } = shown.request;
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    return { notes: files, content: [`${method} ${url}`, ...lines, '', `${body}\n`].join('\n') };
  }
  const notes = [
    `file ${shown.path}`,
    ...(shown.batch
      ? [
          'a batch file: one per hand-over, numbered then and holding all its records; here this record alone',
        ]
      : []),
    ...(shown.marker === undefined ? [] : [`then the empty marker ${shown.marker}`]),
    ...files,
  ];
  return { notes, content: shown.data };
}

/**
 * The record to render: its personal values masked (the same masking as every output, applied
 * before the rendering, so a value reaches no format, column or element unmasked), or as the ERP
 * gets it, with the look recorded.
 */
function toRender(
  store: Store,
  outbound: OutboundRecord,
  personal: PersonalValues,
): OutboundRecord {
  if (personal === 'masked') return { ...outbound, record: maskPersonal(outbound.record) };
  const { resource, id } = outbound;
  recordShowPersonal(store, {
    subject: `${resource}:${id}`,
    detail: `mapping preview ${resource} ${id}`,
  });
  return outbound;
}

async function previewAction(
  resource: ResourceName,
  id: string,
  options: ConfigOption & { showPersonal?: boolean },
): Promise<void> {
  const personal = personalOf(options);
  const preview = await withStoreIfThere(options, async (store, config): Promise<Preview> => {
    if (store === undefined)
      throw new CliExit(EXIT.failure, nothingToShow(resource, id, { found: 'none' }));
    const found: MirroredHandOver = mirroredHandOver(store, resource, id);
    if (found.found !== 'record')
      throw new CliExit(EXIT.failure, nothingToShow(resource, id, found));
    const { outbound, withFiles } = found;
    const rendered = await renderHandOver(config, toRender(store, outbound, personal));
    if ('refused' in rendered) {
      throw new CliExit(
        EXIT.failure,
        `mapping preview: the ${rendered.adapter} adapter would refuse ${resource} ${id} (${outbound.version}): ${rendered.refused}`,
      );
    }
    const { notes, content } = previewOf(rendered, withFiles);
    const how =
      personal === 'masked'
        ? 'personal values masked (--show-personal shows them)'
        : 'personal values shown';
    const title = `${resource} ${id} (${outbound.version}) as the ERP would receive it from the ${rendered.adapter} adapter, ${how}; nothing was written or sent`;
    return { notes: [title, ...notes], content };
  });
  process.stderr.write(preview.notes.map((note) => `# ${note}\n`).join(''));
  process.stdout.write(preview.content);
}

/** `mapping preview <resource> <_id>`: what the ERP would receive for a mirrored record. */
function previewCommand(): Command {
  return withShowPersonal(
    recordCommand(
      'preview',
      'print exactly what the ERP would receive for a mirrored record (file name and content, or the REST request with credentials masked), personal values masked; writes and sends nothing',
    ),
    'the personal values (names, addresses, birth dates, phone and insurance numbers)',
  ).action(previewAction);
}

/** `mapping …`: how records look to the ERP. One function per subcommand, added here. */
export function mappingCommand(): Command {
  return new Command('mapping')
    .description('how records are rendered for the ERP')
    .addCommand(previewCommand());
}
