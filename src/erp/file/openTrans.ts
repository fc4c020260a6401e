import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { isPlainObject } from '../../shared/objects.js';
import type { OpenTransParties } from './options.js';
import { UNIT_ONE, unitCode } from './unitCodes.js';
import { XML_OPTIONS, xmlbuilder } from './xmlFile.js';

export const OPENTRANS_NAMESPACE = 'http://www.opentrans.org/XMLSchema/2.1';
export const BMECAT_NAMESPACE = 'http://www.bmecat.org/bmecat/2005';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** Where the enrichment puts the patient's ERP customer number on an order. */
export const PATIENT_CUSTOMER_ID_FIELD = 'patientCustomerId';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;

function optional(parent: XMLBuilder, name: string, value: unknown, bmecat = false): void {
  const content = text(value);
  if (content === undefined) return;
  const element = bmecat ? parent.ele(BMECAT_NAMESPACE, `bmecat:${name}`) : parent.ele(name);
  element.txt(content);
}

/** The delivery party's id: the ERP customer number where known, else the platform's patientId. */
function deliveryId(order: Record<string, unknown>): { type: string; id: string } | undefined {
  const customerId = text(order[PATIENT_CUSTOMER_ID_FIELD]);
  if (customerId !== undefined) return { type: 'supplier_specific', id: customerId };
  const patientId = text(order.patientId);
  return patientId === undefined ? undefined : { type: 'buyer_specific', id: patientId };
}

function deliveryParty(parties: XMLBuilder, order: Record<string, unknown>): void {
  const party = parties.ele('PARTY');
  const customerId = text(order[PATIENT_CUSTOMER_ID_FIELD]);
  const patientId = text(order.patientId);
  if (customerId !== undefined) {
    party.ele(BMECAT_NAMESPACE, 'bmecat:PARTY_ID', { type: 'supplier_specific' }).txt(customerId);
  }
  if (patientId !== undefined) {
    party.ele(BMECAT_NAMESPACE, 'bmecat:PARTY_ID', { type: 'buyer_specific' }).txt(patientId);
  }
  party.ele('PARTY_ROLE').txt('delivery');
  const address = isPlainObject(order.deliveryAddress) ? order.deliveryAddress : {};
  const element = party.ele('ADDRESS');
  optional(element, 'NAME', address.name, true);
  optional(element, 'NAME2', address.additionalAddress, true);
  optional(element, 'NAME3', address.additionalAddress2, true);
  optional(element, 'STREET', address.address, true);
  optional(element, 'ZIP', address.postalCode, true);
  optional(element, 'CITY', address.city, true);
}

/** The buyer (the platform's side) and the supplier (the ERP's), named by configured ids. */
function tradingParty(parties: XMLBuilder, id: string, role: 'buyer' | 'supplier'): void {
  const party = parties.ele('PARTY');
  party.ele(BMECAT_NAMESPACE, 'bmecat:PARTY_ID', { type: 'supplier_specific' }).txt(id);
  party.ele('PARTY_ROLE').txt(role);
}

/** Who buys, who supplies and where it goes, by the ids of the PARTIES above. */
function partiesReference(info: XMLBuilder, order: Record<string, unknown>, ids: OpenTransParties) {
  const reference = info.ele('ORDER_PARTIES_REFERENCE');
  reference
    .ele(BMECAT_NAMESPACE, 'bmecat:BUYER_IDREF', { type: 'supplier_specific' })
    .txt(ids.buyerId);
  reference
    .ele(BMECAT_NAMESPACE, 'bmecat:SUPPLIER_IDREF', { type: 'supplier_specific' })
    .txt(ids.supplierId);
  const delivery = deliveryId(order);
  if (delivery !== undefined) {
    reference
      .ele('SHIPMENT_PARTIES_REFERENCE')
      .ele('DELIVERY_IDREF', { type: delivery.type })
      .txt(delivery.id);
  }
}

/** The wished delivery day, as a fixed one-day window. */
function deliveryDate(info: XMLBuilder, order: Record<string, unknown>): void {
  const date = text(order.deliveryDate);
  if (date === undefined) return;
  const window = info.ele('DELIVERY_DATE', { type: 'fixed' });
  window.ele('DELIVERY_START_DATE').txt(date);
  window.ele('DELIVERY_END_DATE').txt(date);
}

/**
 * ORDER_UNIT is required: the Rec 20 code of the line's unit, else `C62` (one). A unit we
 * cannot map is kept as a general remark, which openTRANS places after ORDER_UNIT.
 */
function orderUnit(item: XMLBuilder, unit: unknown): void {
  const given = text(unit);
  const code = given === undefined ? undefined : unitCode(given);
  item.ele(BMECAT_NAMESPACE, 'bmecat:ORDER_UNIT').txt(code ?? UNIT_ONE);
  if (given !== undefined && code === undefined) {
    item.ele('REMARKS', { type: 'general' }).txt(`unit: ${given}`);
  }
}

function orderItem(list: XMLBuilder, line: Record<string, unknown>, position: number): void {
  const item = list.ele('ORDER_ITEM');
  item.ele('LINE_ITEM_ID').txt(text(line._id) ?? String(position));
  const product = item.ele('PRODUCT_ID');
  optional(product, 'SUPPLIER_PID', line.articleCustomerNumber, true);
  const articleId = text(line.articleId);
  if (articleId !== undefined) {
    product.ele(BMECAT_NAMESPACE, 'bmecat:BUYER_PID', { type: 'buyer_specific' }).txt(articleId);
  }
  item.ele('QUANTITY').txt(text(line.quantity) ?? '0');
  orderUnit(item, line.unit);
}

/**
 * A single or direct order as an openTRANS 2.1 ORDER. Archived lines are left out: they are no
 * longer part of the order. The platform knows no supplier or buyer id: they come from the
 * config (`openTransParties`). It knows no prices or currency either, so none are written
 * (see docs/readme/file-drop.md).
 */
export function openTransOrder(order: Record<string, unknown>, ids: OpenTransParties): Buffer {
  const root = xmlbuilder()
    .create(XML_OPTIONS)
    .ele(OPENTRANS_NAMESPACE, 'ORDER', { version: '2.1', type: 'standard' })
    .att(XMLNS, 'xmlns:bmecat', BMECAT_NAMESPACE);
  const info = root.ele('ORDER_HEADER').ele('ORDER_INFO');
  info.ele('ORDER_ID').txt(text(order._id) ?? '');
  info.ele('ORDER_DATE').txt(text(order.creationDate ?? order.createdAt ?? order.timestamp) ?? '');
  deliveryDate(info, order);
  const parties = info.ele('PARTIES');
  tradingParty(parties, ids.buyerId, 'buyer');
  tradingParty(parties, ids.supplierId, 'supplier');
  deliveryParty(parties, order);
  partiesReference(info, order, ids);
  const lines = Array.isArray(order.orderedArticleLines) ? order.orderedArticleLines : [];
  const active = lines.filter(isPlainObject).filter((line) => line.archived !== true);
  const list = root.ele('ORDER_ITEM_LIST');
  active.forEach((line, index) => orderItem(list, line, index + 1));
  root.ele('ORDER_SUMMARY').ele('TOTAL_ITEM_NUM').txt(String(active.length));
  return Buffer.from(root.end({ prettyPrint: true }), 'utf8');
}
