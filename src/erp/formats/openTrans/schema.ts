import { readFile } from 'node:fs/promises';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';
import { errorMessage } from '../../../shared/errors.js';
import { XML_CHECK_MEMORY_MIB } from '../../messages/bounds.js';

/**
 * The official openTRANS 2.1 schema check. The schemas (openTRANS 2.1, BMEcat 2005 and the two
 * W3C schemas they import) ship unchanged in `xsd/` (the build copies them into dist). libxml2's
 * xmllint in WebAssembly (xmllint-wasm) checks a document against them in a worker: it has no
 * network and sees only the files handed to it, and a document reaches it only after `readXml`
 * refused every DOCTYPE.
 */

const XSD_FOLDER = new URL('./xsd/', import.meta.url);
const MAIN_SCHEMA = 'opentrans_2_1.xsd';
const IMPORTED_SCHEMAS = ['bmecat_2005.xsd', 'xmlmime.xsd', 'xmldsig-core-schema.xsd'];
const DOCUMENT = 'document.xml';
const PAGES_PER_MIB = 16;

/** Messages longer than this are cut: a problem report is read by a person. */
const MAX_MESSAGE_CHARS = 300;

type SchemaProblem = { line?: number; message: string };

interface Schemas {
  main: XMLFileInfo;
  imported: XMLFileInfo[];
}

let schemas: Promise<Schemas> | undefined;

async function schemaFile(fileName: string): Promise<XMLFileInfo> {
  return { fileName, contents: await readFile(new URL(fileName, XSD_FOLDER), 'utf8') };
}

/** Read once per process: 400 KB that never change while it runs. */
function loadSchemas(): Promise<Schemas> {
  schemas ??= Promise.all([schemaFile(MAIN_SCHEMA), ...IMPORTED_SCHEMAS.map(schemaFile)]).then(
    ([main, ...imported]) => ({ main, imported }),
  );
  // A failed read (a build without `xsd/`) is tried again next time, not remembered.
  schemas.catch(() => (schemas = undefined));
  return schemas;
}

const NAMESPACES: ReadonlyArray<[RegExp, string]> = [
  [/\{http:\/\/www\.opentrans\.org\/XMLSchema\/2\.1\}/g, ''],
  [/\{http:\/\/www\.bmecat\.org\/bmecat\/2005\}/g, 'bmecat:'],
];

/**
 * xmllint's message as a person reads it: without its `Schemas validity error :` label,
 * elements by their prefixed names, and a code list (BMEcat's units are 900 codes) left out.
 */
export function readableMessage(message: string): string {
  let text = message.replace(/^(element [^:]+: )?Schemas validity error\s*:\s*/, '');
  for (const [namespace, prefix] of NAMESPACES) text = text.replace(namespace, prefix);
  text = text.replace(/ is not an element of the set \{[^}]*\}/, " is not in the schema's list");
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** Every way `text` breaks the openTRANS 2.1 schema; empty when it validates. */
export async function openTransSchemaProblems(text: string): Promise<SchemaProblem[]> {
  const { main, imported } = await loadSchemas();
  try {
    const result = await validateXML({
      xml: { fileName: DOCUMENT, contents: text },
      schema: main,
      preload: imported,
      maxMemoryPages: XML_CHECK_MEMORY_MIB * PAGES_PER_MIB,
    });
    return result.errors
      .filter((error) => error.message.trim() !== '' && !/fails to validate$/.test(error.message))
      .map((error) => ({
        ...(error.loc === null ? {} : { line: error.loc.lineNumber }),
        message: readableMessage(error.message),
      }));
  } catch (error) {
    // xmllint ends this way only when it could not finish (e.g. out of its memory).
    return [
      { message: `the schema check could not finish: ${readableMessage(errorMessage(error))}` },
    ];
  }
}
