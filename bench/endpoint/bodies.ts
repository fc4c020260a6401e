/**
 * Invalid erpOrder messages of about 0.9 MB each, just under the default body limit (1 MiB), so
 * that every one is read, parsed and validated instead of refused with 413. Each shape makes the
 * validation find many problems, the costly case for a validator that reports them all.
 */

/** Just under bodyLimitBytes' default of 1 MiB. */
export const TARGET_BYTES = 900_000;

export interface Shape {
  name: string;
  body: Buffer;
}

/** The fields the MINIMUM schema of erpOrder asks for, so that the lines are what is wrong. */
const HEAD = {
  salesId: 'bench-invalid',
  patientId: 'bench-patient',
  outboundDate: '2024-01-01',
  deliveryAddress: {},
};

/** `{"<item 0>","<item 1>",...}` or `[...]` with as many items as fit in TARGET_BYTES. */
function filled(open: string, close: string, item: (i: number) => string): string {
  const parts: string[] = [];
  let length = open.length + close.length;
  for (let i = 0; length < TARGET_BYTES; i += 1) {
    const text = item(i);
    parts.push(text);
    length += text.length + 1;
  }
  return open + parts.join(',') + close;
}

/** A top-level object of 60,000 unknown keys and nothing else, 15 bytes a key. */
function unknownKeys(): string {
  return filled('{', '}', (i) => `"field${String(i).padStart(5, '0')}":0`);
}

/** erpOrderedArticleLines of objects whose known fields all have the wrong type. */
function wrongTypedLines(): string {
  const line = '{"articleId":1,"articleDescription":2,"unit":3,"orderNumber":4,"serialNumber":5}';
  const head = JSON.stringify(HEAD).slice(0, -1);
  return filled(`${head},"erpOrderedArticleLines":[`, ']}', () => line);
}

/** erpOrderedArticleLines of bare numbers where objects belong: one problem per 2 bytes. */
function numbersForLines(): string {
  const head = JSON.stringify(HEAD).slice(0, -1);
  return filled(`${head},"erpOrderedArticleLines":[`, ']}', () => '0');
}

export function invalidShapes(): Shape[] {
  return [
    { name: 'unknown keys', body: Buffer.from(unknownKeys()) },
    { name: 'wrong-typed lines', body: Buffer.from(wrongTypedLines()) },
    { name: 'numbers as lines', body: Buffer.from(numbersForLines()) },
  ];
}

/** A valid order-status message (the order need not exist: it is queued, then looked up). */
export function validOrderStatus(attempt: number): Buffer {
  return Buffer.from(
    JSON.stringify({ orderType: 'single', id: `bench-order-${attempt}`, status: 3 }),
  );
}
