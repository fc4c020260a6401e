import type { JsonBounds } from '../../shared/jsonBounds.js';

/**
 * Bounds on a message from the ERP. The contract states no limits on lists or objects; these
 * are far above any real message, so that only a broken or hostile one meets them, and low
 * enough that checking one costs a few milliseconds.
 */

/** Entries of a list of objects: a real order has a few dozen lines, a bulk order hundreds. */
export const MAX_LIST_ITEMS = 1_000;

/** Entries of a list of texts or numbers: ids (`articleIds`) may name much of a catalogue. */
export const MAX_SCALAR_LIST_ITEMS = 10_000;

/** Fields of one object: the largest entity of the contract (patient) has about 70. */
export const MAX_OBJECT_KEYS = 256;

/**
 * Problems listed per message; the rest are counted in one closing line: the ERP needs the first
 * few to fix its export, and megabytes of them for one bad message cost more than they tell.
 */
export const MAX_LISTED_PROBLEMS = 20;

/** How deep objects and arrays may nest: real messages use fewer than ten levels. */
export const MAX_NESTING = 64;

/** The bounds of a message's text, checked before it is parsed: a hostile shape costs a scan. */
export const ERP_MESSAGE_BOUNDS: JsonBounds = {
  depth: MAX_NESTING,
  keys: MAX_OBJECT_KEYS,
  items: MAX_SCALAR_LIST_ITEMS,
  objectItems: MAX_LIST_ITEMS,
};

/** Characters of a field name shown in a problem or log line; a name may be any length. */
export const MAX_NAME_CHARS = 100;

/**
 * Bytes of one XML file from the ERP: the schema check's fixed memory (`XML_CHECK_MEMORY_MIB`)
 * must hold the whole document as a tree. A dispatch notification of MAX_LIST_ITEMS lines is
 * about 1.5 MB; a lower `maxFileBytes` still applies.
 */
export const MAX_XML_BYTES = 8 * 1024 * 1024;

/** Memory of the schema check, in MiB: an XML file of MAX_XML_BYTES fits with room to spare. */
export const XML_CHECK_MEMORY_MIB = 256;

/** Elements of one XML file: an openTRANS line has 20 to 40; tiny empty ones meet this first. */
export const MAX_XML_ELEMENTS = 100_000;
