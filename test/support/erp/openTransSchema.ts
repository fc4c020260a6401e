/**
 * The official openTRANS 2.1 schema check for tests: the schemas the daemon ships in
 * src/erp/formats/openTrans/xsd (the consortium's files, unchanged: `OFFICIAL_SCHEMAS` pins their
 * SHA-256), run through libxml2's xmllint compiled to WebAssembly (xmllint-wasm), so CI needs
 * no system package. This replaces a hand-written stand-in of the ORDER elements, which had
 * taken the invalid `X…` unit codes for valid ones.
 */
import { openTransSchemaProblems } from '../../../src/erp/formats/openTrans/schema.js';

/** The SHA-256 of each file in ../shared/schemas/opentrans-2.1 (issue #26), as published. */
export const OFFICIAL_SCHEMAS: Readonly<Record<string, string>> = {
  'bmecat_2005.xsd': '1c437a4176758bcb7a5ae33679260267428f671811c4f909e3f3b37e291bc27e',
  'opentrans_2_1.xsd': 'cb44a2ee5fcb969223fdf52cdcaf5cedbc2e652ebd2f294911486db9617fa22c',
  'xmldsig-core-schema.xsd': '3968518245b26d8b51584f0bc320bad02c4d2192e0272d1726983e6af6e1d033',
  'xmlmime.xsd': '4c7be6e7bab678a5b3be1c30fd5b959e44973cdab81a61a8dba7247b04a51de9',
};

/** Every way `text` breaks the openTRANS 2.1 schema, as `line N: message`; empty when valid. */
export async function openTransProblems(text: string): Promise<string[]> {
  const problems = await openTransSchemaProblems(text);
  return problems.map((problem) =>
    problem.line === undefined ? problem.message : `line ${problem.line}: ${problem.message}`,
  );
}
