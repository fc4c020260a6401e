import type { JsonBounds } from '../../shared/jsonBounds.js';

/**
 * Bounds on a message from the ERP. The platform's contract states no limits on lists or
 * objects; these are chosen far above any real message, so that only a broken or hostile one
 * meets them, and low enough that checking one costs a few milliseconds.
 */

/**
 * Entries of a list of objects (order lines, packaging units, care givers). A real ERP order or
 * care arrangement has a few dozen lines; a thousand still fits a large bulk order.
 */
export const MAX_LIST_ITEMS = 1_000;

/**
 * Entries of a list of texts or numbers: lists of ids (`articleIds` of a contract article group)
 * may name a large part of a catalogue, and a plain value costs little to check.
 */
export const MAX_SCALAR_LIST_ITEMS = 10_000;

/** Fields of one object: the largest entity of the contract (patient) has about 70. */
export const MAX_OBJECT_KEYS = 256;

/**
 * Problems listed per message; the rest are counted in one closing line. The ERP needs the
 * first few to fix its export, and a long list (megabytes for one bad message) costs the
 * daemon and the ERP more than it tells.
 */
export const MAX_LISTED_PROBLEMS = 20;

/** How deep objects and arrays may nest: real messages use fewer than ten levels. */
export const MAX_NESTING = 64;

/**
 * The bounds of a message's text, checked before it is parsed (`jsonBoundsProblem`), so that a
 * hostile shape costs a scan, not a parse: lists as long as the longest list of plain values,
 * of which at most MAX_LIST_ITEMS objects.
 */
export const ERP_MESSAGE_BOUNDS: JsonBounds = {
  depth: MAX_NESTING,
  keys: MAX_OBJECT_KEYS,
  items: MAX_SCALAR_LIST_ITEMS,
  objectItems: MAX_LIST_ITEMS,
};

/** Characters of a field name shown in a problem or log line; a name may be any length. */
export const MAX_NAME_CHARS = 100;

/**
 * Bytes of one XML file from the ERP (openTRANS): the schema check runs in WebAssembly with a
 * fixed memory (`XML_CHECK_MEMORY_MIB`), which must hold the whole document as a tree. A
 * dispatch notification of MAX_LIST_ITEMS lines is about 1.5 MB; `maxFileBytes` still applies
 * when it is lower.
 */
export const MAX_XML_BYTES = 8 * 1024 * 1024;

/** Memory of the schema check, in MiB: an XML file of MAX_XML_BYTES fits with room to spare. */
export const XML_CHECK_MEMORY_MIB = 256;

/**
 * Elements of one XML file: an openTRANS line has 20 to 40, so MAX_LIST_ITEMS lines and their
 * header fit many times over; a file of tiny empty elements meets this bound long before it
 * meets MAX_XML_BYTES.
 */
export const MAX_XML_ELEMENTS = 100_000;
