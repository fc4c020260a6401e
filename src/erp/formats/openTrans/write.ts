import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { ResourceName } from '../../../contract/index.js';
import { plainNumber } from '../../../shared/decimals.js';
import { isPlainObject } from '../../../shared/objects.js';
// Why an order cannot be written as a schema-valid ORDER: it is rejected with this.
import { Unwritable } from '../../mapping/values.js';
import { firstFile, writeEach, type OpenTransParties, type WriteOptions } from '../format.js';
import { OPENTRANS_UNITS_TABLE, UNIT_ONE, unitCode, type UnitTable } from './units.js';
import { XML_OPTIONS, xmlbuilder } from '../xml/write.js';

export const OPENTRANS_NAMESPACE = 'http://www.opentrans.org/XMLSchema/2.1';
export const BMECAT_NAMESPACE = 'http://www.bmecat.org/bmecat/2005';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

type Order = Record<string, unknown>;

/** Where the enrichment puts the patient's ERP customer number on an order. */
export const PATIENT_CUSTOMER_ID_FIELD = 'patientCustomerId';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;

/**
 * BMEcat's length limits of the address elements we fill from the platform's free text, in
 * characters. A longer value is cut to fit, and the whole of it goes into a header REMARKS, so
 * the parcel still reaches the patient and nobody loses a word.
 */
const ADDRESS_CHARS = { NAME: 50, NAME2: 50, NAME3: 50, STREET: 50, ZIP: 20, CITY: 50 } as const;
type AddressElement = keyof typeof ADDRESS_CHARS;

/** The address elements, in the schema's order, and the platform's fields they hold. */
export const ADDRESS_FIELDS: readonly (readonly [AddressElement, string])[] = [
  ['NAME', 'name'],
  ['NAME2', 'additionalAddress'],
  ['NAME3', 'additionalAddress2'],
  ['STREET', 'address'],
  ['ZIP', 'postalCode'],
  ['CITY', 'city'],
];

/** SUPPLIER_PID and BUYER_PID: an article number is never cut (it would name another article). */
const PID_CHARS = 50;
/** PARTY_ID, the IDREFs and ORDER_ID: BMEcat's 250 characters. */
const ID_CHARS = 250;
const LINE_ID_CHARS = 50;

/** What is written besides the elements: the header remarks that keep cut values whole. */
type Build = { remarks: string[] };

const characters = (value: string) => [...value];

/** A BMEcat element below `parent`. */
const bmecat = (parent: XMLBuilder, name: string, attributes: Record<string, string> = {}) =>
  parent.ele(BMECAT_NAMESPACE, `bmecat:${name}`, attributes);

function addressPart(parent: XMLBuilder, name: AddressElement, value: unknown, build: Build): void {
  const content = text(value);
  if (content === undefined) return;
  const chars = characters(content);
  const max = ADDRESS_CHARS[name];
  bmecat(parent, name).txt(chars.slice(0, max).join(''));
  if (chars.length > max) build.remarks.push(`delivery address ${name} in full: ${content}`);
}

/**
 * An id as openTRANS takes it: never cut (a cut id names another record), so one longer than
 * the element allows makes the order unwritable.
 */
function bounded(name: string, value: string, max: number): string {
  if (characters(value).length <= max) return value;
  throw new Unwritable(`${name} "${value}" is longer than the ${max} characters openTRANS allows`);
}

/** BMEcat's dtDATETIME: a date, or a date and time with an optional zone. */
const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?)?$/;

/**
 * A platform date as dtDATETIME: kept as it is when it fits, else the instant it names in UTC
 * (a platform that writes another ISO form); undefined when it names no instant.
 */
function dateTime(value: unknown): string | undefined {
  const given = text(value);
  if (given === undefined) return undefined;
  if (DATE_TIME.test(given)) return given;
  const instant = new Date(given);
  return Number.isNaN(instant.getTime()) ? undefined : instant.toISOString();
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * QUANTITY is dtNUMBER, an xsd:decimal: no exponent, no decimal comma. A line without a
 * quantity is written as 0, as before; one that is no number makes the order unwritable.
 */
function quantity(value: unknown, lineItemId: string): string {
  if (value === undefined || value === null) return '0';
  if (typeof value === 'string' && DECIMAL.test(value)) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return plainNumber(value);
  const shown = JSON.stringify(value);
  throw new Unwritable(`line ${lineItemId}: quantity ${shown} is not a decimal number`);
}

function productId(product: XMLBuilder, name: 'SUPPLIER_PID' | 'BUYER_PID', value: string): void {
  const attributes = name === 'BUYER_PID' ? { type: 'buyer_specific' } : {};
  bmecat(product, name, attributes).txt(bounded(name, value, PID_CHARS));
}

/** The delivery party's id: the ERP customer number where known, else the platform's patientId. */
function deliveryId(order: Order): { type: string; id: string } {
  const customerId = text(order[PATIENT_CUSTOMER_ID_FIELD]);
  if (customerId !== undefined) return { type: 'supplier_specific', id: customerId };
  const patientId = text(order.patientId);
  // openTRANS needs a PARTY_ID for every party, and the delivery party is the patient.
  if (patientId === undefined) throw new Unwritable('the order names no patient (patientId)');
  return { type: 'buyer_specific', id: patientId };
}

function deliveryParty(parties: XMLBuilder, order: Order, build: Build): void {
  const party = parties.ele('PARTY');
  const partyId = (type: string, what: string, id: string | undefined) => {
    if (id !== undefined) bmecat(party, 'PARTY_ID', { type }).txt(bounded(what, id, ID_CHARS));
  };
  partyId('supplier_specific', 'the patient customerId', text(order[PATIENT_CUSTOMER_ID_FIELD]));
  partyId('buyer_specific', 'patientId', text(order.patientId));
  party.ele('PARTY_ROLE').txt('delivery');
  const address = isPlainObject(order.deliveryAddress) ? order.deliveryAddress : {};
  const element = party.ele('ADDRESS');
  for (const [name, field] of ADDRESS_FIELDS) addressPart(element, name, address[field], build);
}

/** The buyer (the platform's side) and the supplier (the ERP's), named by configured ids. */
function tradingParty(parties: XMLBuilder, id: string, role: 'buyer' | 'supplier'): void {
  const party = parties.ele('PARTY');
  bmecat(party, 'PARTY_ID', { type: 'supplier_specific' }).txt(
    bounded(`openTransParties.${role}Id`, id, ID_CHARS),
  );
  party.ele('PARTY_ROLE').txt(role);
}

/** Who buys, who supplies and where it goes, by the ids of the PARTIES above. */
function partiesReference(info: XMLBuilder, order: Order, ids: OpenTransParties) {
  const reference = info.ele('ORDER_PARTIES_REFERENCE');
  bmecat(reference, 'BUYER_IDREF', { type: 'supplier_specific' }).txt(ids.buyerId);
  bmecat(reference, 'SUPPLIER_IDREF', { type: 'supplier_specific' }).txt(ids.supplierId);
  const delivery = deliveryId(order);
  reference
    .ele('SHIPMENT_PARTIES_REFERENCE')
    .ele('DELIVERY_IDREF', { type: delivery.type })
    .txt(delivery.id);
}

/** ORDER_DATE, required: when the order was made, else its version stamp (always there). */
function orderDate(order: Order): string {
  const date = [order.creationDate, order.createdAt, order.timestamp]
    .map(dateTime)
    .find((value) => value !== undefined);
  if (date === undefined) throw new Unwritable('the order names no creation date or timestamp');
  return date;
}

/** The wished delivery day, as a fixed one-day window; a date naming no day is left out. */
function deliveryDate(info: XMLBuilder, order: Order): void {
  const date = dateTime(order.deliveryDate);
  if (date === undefined) return;
  const window = info.ele('DELIVERY_DATE', { type: 'fixed' });
  window.ele('DELIVERY_START_DATE').txt(date);
  window.ele('DELIVERY_END_DATE').txt(date);
}

/** The BMEcat code an order line's unit is written as: its table code, else `C62` (one). */
export function orderUnitCode(unit: unknown, own: UnitTable = {}): string {
  const given = text(unit);
  return (given === undefined ? undefined : unitCode(given, own)) ?? UNIT_ONE;
}

/**
 * ORDER_UNIT is required: the BMEcat code of the line's unit, else `C62` (one). A unit we
 * cannot map is kept as a general remark, which openTRANS places after ORDER_UNIT.
 */
function orderUnit(item: XMLBuilder, unit: unknown, own: UnitTable): void {
  const given = text(unit);
  bmecat(item, 'ORDER_UNIT').txt(orderUnitCode(unit, own));
  if (given !== undefined && unitCode(given, own) === undefined) {
    item.ele('REMARKS', { type: 'general' }).txt(`unit: ${given}`);
  }
}

/**
 * The lines an ORDER holds, by the LINE_ITEM_ID each is written with: its `_id`, else its
 * position. Archived lines are left out: they are no longer part of the order. Answers name a
 * line by this id, so the reader of answers takes it from here too.
 */
export function orderLineItems(
  order: Order,
): { lineItemId: string; line: Record<string, unknown> }[] {
  const lines = Array.isArray(order.orderedArticleLines) ? order.orderedArticleLines : [];
  return lines
    .filter(isPlainObject)
    .filter((line) => line.archived !== true)
    .map((line, index) => ({ lineItemId: text(line._id) ?? String(index + 1), line }));
}

function orderItem(
  list: XMLBuilder,
  lineItemId: string,
  line: Record<string, unknown>,
  units: UnitTable,
): void {
  const item = list.ele('ORDER_ITEM');
  item.ele('LINE_ITEM_ID').txt(bounded('LINE_ITEM_ID', lineItemId, LINE_ID_CHARS));
  const product = item.ele('PRODUCT_ID');
  const supplierPid = text(line.articleCustomerNumber);
  if (supplierPid !== undefined) productId(product, 'SUPPLIER_PID', supplierPid);
  const articleId = text(line.articleId);
  if (articleId !== undefined) productId(product, 'BUYER_PID', articleId);
  item.ele('QUANTITY').txt(quantity(line.quantity, lineItemId));
  orderUnit(item, line.unit, units);
}

/**
 * A single or direct order as an openTRANS 2.1 ORDER valid against the official schema, its
 * ORDER_ID the order's `_id` (a platform UUID, unique across single and direct orders: an
 * answer's ORDER_ID is looked up in both); Unwritable with why when no valid ORDER can say it
 * (no line left, no patient, an article number too long). The buyer and supplier ids come from
 * the config (`openTransParties`); no prices are written: the platform knows none.
 * `units` (the value table `openTransUnits`) maps units before the built-in table does.
 */
export function openTransOrder(order: Order, ids: OpenTransParties, units: UnitTable = {}): Buffer {
  const items = orderLineItems(order);
  if (items.length === 0) {
    throw new Unwritable(
      'not written as openTRANS: an ORDER needs a line, and every line is archived',
    );
  }
  const build: Build = { remarks: [] };
  try {
    const root = xmlbuilder()
      .create(XML_OPTIONS)
      .ele(OPENTRANS_NAMESPACE, 'ORDER', { version: '2.1', type: 'standard' })
      .att(XMLNS, 'xmlns:bmecat', BMECAT_NAMESPACE);
    const info = root.ele('ORDER_HEADER').ele('ORDER_INFO');
    const id = text(order._id);
    if (id === undefined) throw new Unwritable('the order has no _id');
    info.ele('ORDER_ID').txt(bounded('ORDER_ID', id, ID_CHARS));
    info.ele('ORDER_DATE').txt(orderDate(order));
    deliveryDate(info, order);
    const parties = info.ele('PARTIES');
    tradingParty(parties, ids.buyerId, 'buyer');
    tradingParty(parties, ids.supplierId, 'supplier');
    deliveryParty(parties, order, build);
    partiesReference(info, order, ids);
    for (const remark of build.remarks) info.ele('REMARKS', { type: 'general' }).txt(remark);
    const list = root.ele('ORDER_ITEM_LIST');
    for (const { lineItemId, line } of items) orderItem(list, lineItemId, line, units);
    root.ele('ORDER_SUMMARY').ele('TOTAL_ITEM_NUM').txt(String(items.length));
    return Buffer.from(root.end({ prettyPrint: true }), 'utf8');
  } catch (error) {
    if (error instanceof Unwritable) {
      throw new Unwritable(`not written as openTRANS: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/** The file of one order (orders openTRANS has a document for: OPENTRANS_ORDERS). */
export function openTransFile(_: ResourceName, orders: readonly Order[], options: WriteOptions) {
  const { openTransParties: parties, valueTables } = options;
  const units = valueTables[OPENTRANS_UNITS_TABLE];
  return writeEach(orders, (order) => [openTransOrder(order, parties, units)], firstFile);
}
