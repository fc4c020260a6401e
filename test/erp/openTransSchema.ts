/**
 * A schema of the openTRANS 2.1 ORDER elements homecare-sync writes, written from the openTRANS
 * 2.1 specification (ORDER document, with the BMEcat 2005 types it uses): element order and
 * occurrence, the code lists of the attributes and values we fill, and the ID references.
 * The official XSD is not published in a registry this project can install from, so this
 * stands in for it; elements we never write are allowed by name where the standard allows
 * them, without their inner rules.
 */
import { XMLParser } from 'fast-xml-parser';

type Occurs = readonly [name: string, min: number, max: number];
interface Rule {
  children?: readonly Occurs[];
  /** Allowed text: a pattern or a code list. */
  text?: RegExp | readonly string[];
  attributes?: Readonly<Record<string, RegExp | readonly string[]>>;
  required?: readonly string[];
}

const MANY = Number.POSITIVE_INFINITY;
const NON_EMPTY = /\S/;
/** dtDATETIME: xsd:date or xsd:dateTime. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const PARTY_TYPES = [
  'buyer_specific',
  'customer_specific',
  'duns',
  'iln',
  'gln',
  'party_specific',
  'supplier_specific',
];
const PARTY_ROLES = [
  'buyer',
  'central_regulator',
  'customer',
  'deliverer',
  'delivery',
  'document_creator',
  'final_delivery',
  'intermediary',
  'invoice_issuer',
  'invoice_recipient',
  'ipp_operator',
  'manufacturer',
  'marketplace',
  'payer',
  'remittee',
  'standardization_body',
  'supplier',
  'trustedthirdparty',
  'other',
];
/** UN/ECE Recommendation 20 codes (with the X-prefixed Rec 21 packagings) our mapping may use. */
export const REC20_CODES = [
  'C62',
  'H87',
  'PR',
  'SET',
  'XPK',
  'XCT',
  'XBX',
  'XCX',
  'XBO',
  'XBG',
  'XTU',
  'XRO',
  'MTR',
  'CMT',
  'LTR',
  'MLT',
  'GRM',
  'KGM',
];
const idref = { attributes: { type: PARTY_TYPES }, required: ['type'], text: NON_EMPTY };

const RULES: Readonly<Record<string, Rule>> = {
  ORDER: {
    attributes: {
      version: ['2.1'],
      type: ['standard', 'express', 'release', 'consignment'],
      xmlns: ['http://www.opentrans.org/XMLSchema/2.1'],
      'xmlns:bmecat': ['http://www.bmecat.org/bmecat/2005'],
    },
    required: ['version', 'type'],
    children: [
      ['ORDER_HEADER', 1, 1],
      ['ORDER_ITEM_LIST', 1, 1],
      ['ORDER_SUMMARY', 1, 1],
    ],
  },
  ORDER_HEADER: {
    children: [
      ['CONTROL_INFO', 0, 1],
      ['SOURCING_INFO', 0, 1],
      ['ORDER_INFO', 1, 1],
    ],
  },
  ORDER_INFO: {
    children: [
      ['ORDER_ID', 1, 1],
      ['ORDER_DATE', 1, 1],
      ['ORDER_CHANGE_SEQUENCE_ID', 0, 1],
      ['DELIVERY_DATE', 0, 1],
      ['LANGUAGE', 0, MANY],
      ['MIME_ROOT', 0, 1],
      ['PARTIES', 1, 1],
      ['CUSTOMER_ORDER_REFERENCE', 0, 1],
      ['ORDER_PARTIES_REFERENCE', 1, 1],
      ['DOCEXCHANGE_PARTIES_REFERENCE', 0, 1],
      ['bmecat:CURRENCY', 0, 1],
      ['PAYMENT', 0, 1],
      ['TERMS_AND_CONDITIONS', 0, 1],
      ['PARTIAL_SHIPMENT_ALLOWED', 0, 1],
      ['TRANSPORT', 0, 1],
      ['INTERNATIONAL_RESTRICTIONS', 0, MANY],
      ['bmecat:MIME_INFO', 0, 1],
      ['REMARKS', 0, MANY],
      ['HEADER_UDX', 0, 1],
    ],
  },
  ORDER_ID: { text: NON_EMPTY },
  ORDER_DATE: { text: DATE_TIME },
  DELIVERY_DATE: {
    attributes: { type: ['fixed', 'optional'] },
    children: [
      ['DELIVERY_START_DATE', 1, 1],
      ['DELIVERY_END_DATE', 1, 1],
    ],
  },
  DELIVERY_START_DATE: { text: DATE_TIME },
  DELIVERY_END_DATE: { text: DATE_TIME },
  PARTIES: { children: [['PARTY', 1, MANY]] },
  PARTY: {
    children: [
      ['bmecat:PARTY_ID', 1, MANY],
      ['PARTY_ROLE', 0, MANY],
      ['ADDRESS', 0, MANY],
      ['bmecat:MIME_INFO', 0, 1],
      ['ACCOUNT', 0, MANY],
    ],
  },
  'bmecat:PARTY_ID': idref,
  PARTY_ROLE: { text: PARTY_ROLES },
  ADDRESS: {
    children: [
      ['bmecat:NAME', 0, 1],
      ['bmecat:NAME2', 0, 1],
      ['bmecat:NAME3', 0, 1],
      ['bmecat:DEPARTMENT', 0, 1],
      ['CONTACT_DETAILS', 0, MANY],
      ['bmecat:STREET', 0, 1],
      ['bmecat:ZIP', 0, 1],
      ['bmecat:BOXNO', 0, 1],
      ['bmecat:ZIPBOX', 0, 1],
      ['bmecat:CITY', 0, 1],
      ['bmecat:STATE', 0, 1],
      ['bmecat:COUNTRY', 0, 1],
      ['bmecat:COUNTRY_CODED', 0, 1],
    ],
  },
  'bmecat:NAME': { text: NON_EMPTY },
  'bmecat:NAME2': { text: NON_EMPTY },
  'bmecat:NAME3': { text: NON_EMPTY },
  'bmecat:STREET': { text: NON_EMPTY },
  'bmecat:ZIP': { text: NON_EMPTY },
  'bmecat:CITY': { text: NON_EMPTY },
  ORDER_PARTIES_REFERENCE: {
    children: [
      ['bmecat:BUYER_IDREF', 1, 1],
      ['bmecat:SUPPLIER_IDREF', 1, 1],
      ['INVOICE_RECIPIENT_IDREF', 0, 1],
      ['BUYER_AGENT_IDREF', 0, MANY],
      ['SHIPMENT_PARTIES_REFERENCE', 0, 1],
    ],
  },
  'bmecat:BUYER_IDREF': idref,
  'bmecat:SUPPLIER_IDREF': idref,
  SHIPMENT_PARTIES_REFERENCE: {
    children: [
      ['DELIVERY_IDREF', 1, 1],
      ['FINAL_DELIVERY_IDREF', 0, 1],
      ['DELIVERER_IDREF', 0, MANY],
    ],
  },
  DELIVERY_IDREF: idref,
  ORDER_ITEM_LIST: { children: [['ORDER_ITEM', 1, MANY]] },
  ORDER_ITEM: {
    children: [
      ['LINE_ITEM_ID', 1, 1],
      ['PRODUCT_ID', 1, 1],
      ['PRODUCT_FEATURES', 0, 1],
      ['PRODUCT_COMPONENTS', 0, 1],
      ['QUANTITY', 1, 1],
      ['bmecat:ORDER_UNIT', 1, 1],
      ['PRODUCT_PRICE_FIX', 0, 1],
      ['PRICE_LINE_AMOUNT', 0, 1],
      ['PARTIAL_SHIPMENT_ALLOWED', 0, 1],
      ['DELIVERY_DATE', 0, 1],
      ['PARTIAL_DELIVERY_LIST', 0, 1],
      ['SOURCING_INFO', 0, 1],
      ['CUSTOMER_ORDER_REFERENCE', 0, 1],
      ['ACCOUNTING_INFO', 0, 1],
      ['SHIPMENT_PARTIES_REFERENCE', 0, 1],
      ['TRANSPORT', 0, 1],
      ['INTERNATIONAL_RESTRICTIONS', 0, MANY],
      ['SPECIAL_TREATMENT_CLASS', 0, MANY],
      ['bmecat:MIME_INFO', 0, 1],
      ['REMARKS', 0, MANY],
      ['ITEM_UDX', 0, 1],
    ],
  },
  LINE_ITEM_ID: { text: NON_EMPTY },
  PRODUCT_ID: {
    children: [
      ['bmecat:SUPPLIER_PID', 0, 1],
      ['SUPPLIER_IDREF', 0, 1],
      ['CONFIG_CODE_FIX', 0, 1],
      ['LOT_NUMBER', 0, 1],
      ['SERIAL_NUMBER', 0, MANY],
      ['bmecat:INTERNATIONAL_PID', 0, MANY],
      ['bmecat:BUYER_PID', 0, MANY],
      ['bmecat:DESCRIPTION_SHORT', 0, MANY],
      ['bmecat:DESCRIPTION_LONG', 0, MANY],
      ['bmecat:MANUFACTURER_INFO', 0, 1],
      ['bmecat:PRODUCT_TYPE', 0, 1],
    ],
  },
  'bmecat:SUPPLIER_PID': { text: NON_EMPTY },
  'bmecat:BUYER_PID': { text: NON_EMPTY, attributes: { type: PARTY_TYPES } },
  QUANTITY: { text: DECIMAL },
  'bmecat:ORDER_UNIT': { text: REC20_CODES },
  REMARKS: { text: NON_EMPTY, attributes: { type: NON_EMPTY } },
  ORDER_SUMMARY: {
    children: [
      ['TOTAL_ITEM_NUM', 1, 1],
      ['TOTAL_AMOUNT', 0, 1],
    ],
  },
  TOTAL_ITEM_NUM: { text: /^\d+$/ },
};

/** fast-xml-parser's ordered form: `{ NAME: children, ':@': attributes }` or `{ '#text': t }`. */
type Node = Record<string, unknown>;

function nameOf(node: Node): string | undefined {
  return Object.keys(node).find((key) => key !== ':@');
}

/** A text node's value; fast-xml-parser gives strings here (parseTagValue: false). */
function textOf(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function allowed(value: string, rule: RegExp | readonly string[]): boolean {
  return rule instanceof RegExp ? rule.test(value) : rule.includes(value);
}

function checkElement(name: string, node: Node, path: string, problems: string[]): void {
  const rule = RULES[name];
  if (rule === undefined)
    return (problems.push(`${path}: ${name} is not an element we write`), undefined);
  const attributes = (node[':@'] ?? {}) as Record<string, string>;
  for (const [key, value] of Object.entries(attributes)) {
    const attribute = key.replace(/^@_/, '');
    const check = rule.attributes?.[attribute];
    if (check === undefined) problems.push(`${path}: attribute ${attribute} not allowed`);
    else if (!allowed(value, check)) problems.push(`${path}/@${attribute}: "${value}" not allowed`);
  }
  for (const attribute of rule.required ?? []) {
    if (!(`@_${attribute}` in attributes)) problems.push(`${path}: attribute ${attribute} missing`);
  }
  const children = (node[name] as Node[]).filter((child) => nameOf(child) !== '#text');
  const text = (node[name] as Node[]).map((child) => textOf(child['#text'])).join('');
  if (rule.text !== undefined && !allowed(text, rule.text)) {
    problems.push(`${path}: text "${text}" not allowed`);
  }
  checkSequence(rule.children ?? [], children, path, problems);
}

function checkSequence(
  sequence: readonly Occurs[],
  children: Node[],
  path: string,
  problems: string[],
) {
  let index = 0;
  for (const [name, min, max] of sequence) {
    let count = 0;
    while (index < children.length && nameOf(children[index] ?? {}) === name && count < max) {
      const child = children[index] as Node;
      checkElement(name, child, `${path}/${name}`, problems);
      index += 1;
      count += 1;
    }
    if (count < min) problems.push(`${path}: ${name} required${min > 1 ? ` ${min} times` : ''}`);
  }
  for (const rest of children.slice(index)) {
    problems.push(`${path}: ${nameOf(rest) ?? '?'} not allowed here (order or count)`);
  }
}

interface Parsed {
  partyIds: Set<string>;
  refs: string[];
  items: number;
  total: string;
}

/** What the ID references point at, and the item count against TOTAL_ITEM_NUM. */
function references(text: string): Parsed {
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    isArray: () => true,
  });
  const doc = parser.parse(text) as Record<string, Node[]>;
  const order = doc.ORDER?.[0] as Record<string, Node[]>;
  const info = (order.ORDER_HEADER?.[0] as Record<string, Node[]>).ORDER_INFO?.[0] as Record<
    string,
    Node[]
  >;
  const key = (id: Node) => `${String(id['@_type'])}:${String(id['#text'])}`;
  const parties = ((info.PARTIES?.[0] as Record<string, Node[]>).PARTY ?? []) as Record<
    string,
    Node[]
  >[];
  const partyIds = new Set(parties.flatMap((p) => (p['bmecat:PARTY_ID'] ?? []).map(key)));
  const reference = info.ORDER_PARTIES_REFERENCE?.[0] as Record<string, Node[]>;
  const shipment = reference['SHIPMENT_PARTIES_REFERENCE']?.[0] as
    Record<string, Node[]> | undefined;
  const refs = [
    ...(reference['bmecat:BUYER_IDREF'] ?? []),
    ...(reference['bmecat:SUPPLIER_IDREF'] ?? []),
    ...(shipment?.DELIVERY_IDREF ?? []),
  ].map(key);
  const list = order.ORDER_ITEM_LIST?.[0] as Record<string, Node[]>;
  const summary = order.ORDER_SUMMARY?.[0] as Record<string, Node[]>;
  return {
    partyIds,
    refs,
    items: list.ORDER_ITEM?.length ?? 0,
    total: textOf(summary.TOTAL_ITEM_NUM?.[0]),
  };
}

/** Every way `text` breaks the schema above; empty when it is a valid ORDER. */
export function openTransProblems(text: string): string[] {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    parseTagValue: false,
  });
  const nodes = (parser.parse(text) as Node[]).filter((node) => nameOf(node) !== '?xml');
  const [root, ...others] = nodes;
  if (root === undefined || nameOf(root) !== 'ORDER' || others.length > 0)
    return ['the root is not one ORDER'];
  const problems: string[] = [];
  checkElement('ORDER', root, 'ORDER', problems);
  if (problems.length > 0) return problems;
  const { partyIds, refs, items, total } = references(text);
  for (const ref of refs) if (!partyIds.has(ref)) problems.push(`IDREF ${ref} names no PARTY_ID`);
  if (String(items) !== total) problems.push(`TOTAL_ITEM_NUM ${total}, but ${items} ORDER_ITEMs`);
  return problems;
}
