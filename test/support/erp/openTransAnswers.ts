/**
 * openTRANS 2.1 answers as an ERP writes them to an ORDER of ours: an ORDERRESPONSE and a
 * DISPATCHNOTIFICATION, valid against the official schema, with the parts a test varies as
 * parameters.
 */

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<{root} xmlns="http://www.opentrans.org/XMLSchema/2.1" ' +
  'xmlns:bmecat="http://www.bmecat.org/bmecat/2005" version="2.1">';

const head = (root: string) => HEAD.replace('{root}', root);

const PARTIES = `
      <PARTIES>
        <PARTY>
          <bmecat:PARTY_ID type="supplier_specific">homecare-platform</bmecat:PARTY_ID>
          <PARTY_ROLE>buyer</PARTY_ROLE>
        </PARTY>
        <PARTY>
          <bmecat:PARTY_ID type="supplier_specific">supplier</bmecat:PARTY_ID>
          <PARTY_ROLE>supplier</PARTY_ROLE>
        </PARTY>
        <PARTY>
          <bmecat:PARTY_ID type="supplier_specific">K-10042</bmecat:PARTY_ID>
          <PARTY_ROLE>delivery</PARTY_ROLE>
          <ADDRESS>
            <bmecat:NAME>Erika Mustermann</bmecat:NAME>
            <bmecat:STREET>Hauptstraße 5</bmecat:STREET>
            <bmecat:ZIP>50667</bmecat:ZIP>
            <bmecat:CITY>Köln</bmecat:CITY>
          </ADDRESS>
        </PARTY>
      </PARTIES>`;

export interface ResponseLine {
  lineItemId: string;
  quantity: number;
  unit?: string;
  supplierPid?: string;
}

export function orderResponse(options: {
  orderId: string;
  salesId?: string;
  delivery?: string;
  lines: ResponseLine[];
}): string {
  const items = options.lines.map(
    (line) => `
    <ORDERRESPONSE_ITEM>
      <LINE_ITEM_ID>${line.lineItemId}</LINE_ITEM_ID>
      <PRODUCT_ID>
        <bmecat:SUPPLIER_PID>${line.supplierPid ?? '100-200'}</bmecat:SUPPLIER_PID>
      </PRODUCT_ID>
      <QUANTITY>${line.quantity}</QUANTITY>
      <bmecat:ORDER_UNIT>${line.unit ?? 'C62'}</bmecat:ORDER_UNIT>
    </ORDERRESPONSE_ITEM>`,
  );
  const delivery =
    options.delivery === undefined
      ? ''
      : `
      <DELIVERY_DATE>
        <DELIVERY_START_DATE>${options.delivery}</DELIVERY_START_DATE>
        <DELIVERY_END_DATE>${options.delivery}</DELIVERY_END_DATE>
      </DELIVERY_DATE>`;
  const salesId =
    options.salesId === undefined
      ? ''
      : `\n      <SUPPLIER_ORDER_ID>${options.salesId}</SUPPLIER_ORDER_ID>`;
  return `${head('ORDERRESPONSE')}
  <ORDERRESPONSE_HEADER>
    <ORDERRESPONSE_INFO>
      <ORDER_ID>${options.orderId}</ORDER_ID>
      <ORDERRESPONSE_DATE>2026-01-15T09:00:00Z</ORDERRESPONSE_DATE>${salesId}${delivery}${PARTIES}
      <ORDER_PARTIES_REFERENCE>
        <bmecat:BUYER_IDREF type="supplier_specific">homecare-platform</bmecat:BUYER_IDREF>
        <bmecat:SUPPLIER_IDREF type="supplier_specific">supplier</bmecat:SUPPLIER_IDREF>
      </ORDER_PARTIES_REFERENCE>
    </ORDERRESPONSE_INFO>
  </ORDERRESPONSE_HEADER>
  <ORDERRESPONSE_ITEM_LIST>${items.join('')}
  </ORDERRESPONSE_ITEM_LIST>
  <ORDERRESPONSE_SUMMARY>
    <TOTAL_ITEM_NUM>${options.lines.length}</TOTAL_ITEM_NUM>
  </ORDERRESPONSE_SUMMARY>
</ORDERRESPONSE>
`;
}

export interface DispatchLine {
  orderId: string;
  lineItemId: string;
  quantity: number;
  salesId?: string;
  completed?: boolean;
}

export function dispatchNotification(options: {
  shipmentId?: string;
  trackingUrl?: string;
  date?: string;
  lines: DispatchLine[];
}): string {
  const items = options.lines.map((line) => {
    const completed =
      line.completed === undefined
        ? ''
        : `\n      <DELIVERY_COMPLETED>${String(line.completed)}</DELIVERY_COMPLETED>`;
    const sales =
      line.salesId === undefined
        ? ''
        : `
      <SUPPLIER_ORDER_REFERENCE>
        <SUPPLIER_ORDER_ID>${line.salesId}</SUPPLIER_ORDER_ID>
        <SUPPLIER_ORDER_ITEM_ID>${line.lineItemId}</SUPPLIER_ORDER_ITEM_ID>
      </SUPPLIER_ORDER_REFERENCE>`;
    return `
    <DISPATCHNOTIFICATION_ITEM>
      <LINE_ITEM_ID>${line.lineItemId}</LINE_ITEM_ID>
      <PRODUCT_ID>
        <bmecat:SUPPLIER_PID>100-200</bmecat:SUPPLIER_PID>
      </PRODUCT_ID>
      <QUANTITY>${line.quantity}</QUANTITY>
      <bmecat:ORDER_UNIT>C62</bmecat:ORDER_UNIT>${completed}
      <ORDER_REFERENCE>
        <ORDER_ID>${line.orderId}</ORDER_ID>
        <LINE_ITEM_ID>${line.lineItemId}</LINE_ITEM_ID>
      </ORDER_REFERENCE>${sales}
      <SHIPMENT_PARTIES_REFERENCE>
        <DELIVERY_IDREF type="supplier_specific">K-10042</DELIVERY_IDREF>
      </SHIPMENT_PARTIES_REFERENCE>
    </DISPATCHNOTIFICATION_ITEM>`;
  });
  const shipment =
    options.shipmentId === undefined
      ? ''
      : `\n      <SHIPMENT_ID>${options.shipmentId}</SHIPMENT_ID>`;
  const url =
    options.trackingUrl === undefined
      ? ''
      : `\n      <TRACKING_TRACING_URL>${options.trackingUrl}</TRACKING_TRACING_URL>`;
  return `${head('DISPATCHNOTIFICATION')}
  <DISPATCHNOTIFICATION_HEADER>
    <DISPATCHNOTIFICATION_INFO>
      <DISPATCHNOTIFICATION_ID>LS-2026-0001</DISPATCHNOTIFICATION_ID>
      <DISPATCHNOTIFICATION_DATE>${options.date ?? '2026-01-16T10:00:00Z'}</DISPATCHNOTIFICATION_DATE>${PARTIES}
      <bmecat:SUPPLIER_IDREF type="supplier_specific">supplier</bmecat:SUPPLIER_IDREF>
      <SHIPMENT_PARTIES_REFERENCE>
        <DELIVERY_IDREF type="supplier_specific">K-10042</DELIVERY_IDREF>
      </SHIPMENT_PARTIES_REFERENCE>${shipment}${url}
    </DISPATCHNOTIFICATION_INFO>
  </DISPATCHNOTIFICATION_HEADER>
  <DISPATCHNOTIFICATION_ITEM_LIST>${items.join('')}
  </DISPATCHNOTIFICATION_ITEM_LIST>
  <DISPATCHNOTIFICATION_SUMMARY>
    <TOTAL_ITEM_NUM>${options.lines.length}</TOTAL_ITEM_NUM>
  </DISPATCHNOTIFICATION_SUMMARY>
</DISPATCHNOTIFICATION>
`;
}
