import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { attachmentFile } from '../../../src/simulator/seed/index.js';
import { ean13From, isValidPzn, lanrFrom, pznFrom } from '../../../src/simulator/seed/numbers.js';
import { recordsOf, seedOf } from '../../support/simulator/seedFixtures.js';

describe('check digits', () => {
  it('computes PZN, EAN-13 and LANR as published', () => {
    expect(pznFrom('0123456')).toBe('01234562');
    expect(isValidPzn('01234562')).toBe(true);
    expect(isValidPzn('01234563')).toBe(false);
    expect(isValidPzn('1234562')).toBe(false);
    expect(ean13From('400638133393')).toBe('4006381333931');
    expect(lanrFrom('123456', '01')).toBe('123456601');
  });

  it('has no PZN for seven digits whose check digit would be 10', () => {
    // 1·0 + 2·0 + 3·0 + 4·0 + 5·0 + 6·0 + 7·3 = 21 ≡ 10 (mod 11)
    expect(pznFrom('0000003')).toBeUndefined();
    expect(isValidPzn('00000030')).toBe(false);
  });
});

describe('attachmentFile', () => {
  const attachments = recordsOf(seedOf('C', 3), 'attachment');

  it('gives a real 16 × 16 PNG for image attachments', () => {
    const image = attachments.find((a) => a.contentType === 'image/png');
    expect(image).toBeDefined();
    const { contentType, data } = attachmentFile(image ?? {});
    expect(contentType).toBe('image/png');
    expect(data.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(data.readUInt32BE(16)).toBe(16);
    expect(data.readUInt32BE(20)).toBe(16);
    const idatLength = data.readUInt32BE(33);
    expect(data.toString('ascii', 37, 41)).toBe('IDAT');
    const pixels = inflateSync(data.subarray(41, 41 + idatLength));
    expect(pixels).toHaveLength(16 * (1 + 16 * 3));
  });

  it('gives a PDF that pdf-lib loads for PDF attachments', async () => {
    const scan = attachments.find((a) => a.contentType === 'application/pdf');
    const { contentType, data } = attachmentFile(scan ?? {});
    expect(contentType).toBe('application/pdf');
    expect(data.toString('latin1', 0, 5)).toBe('%PDF-');
    const pdf = await PDFDocument.load(data);
    expect(pdf.getPageCount()).toBe(1);
    expect(data.toString('latin1')).toContain(`Anlage ${String(scan?._id)}`);
  });

  it('is deterministic and differs between attachments', () => {
    const [first, second] = attachments.filter((a) => a.contentType === 'image/png');
    expect(attachmentFile(first ?? {}).data).toEqual(attachmentFile({ ...first }).data);
    expect(attachmentFile(first ?? {}).data).not.toEqual(attachmentFile(second ?? {}).data);
  });

  it('falls back to text for other content types', () => {
    const file = attachmentFile({ _id: 'abc', filename: 'notiz.txt', contentType: 'text/csv' });
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    expect(file.data.toString('utf8')).toBe('notiz.txt\nabc\n');
  });
});
