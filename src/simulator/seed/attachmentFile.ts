import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/**
 * The file behind a seeded attachment, made from the record alone so every download of one
 * attachment gives the same bytes: a small PNG for images, a one-page PDF for PDFs, a short
 * text for anything else.
 */
export function attachmentFile(record: Record<string, unknown>): {
  contentType: string;
  data: Buffer;
} {
  const id = typeof record._id === 'string' ? record._id : '';
  const filename = typeof record.filename === 'string' ? record.filename : id;
  const contentType = typeof record.contentType === 'string' ? record.contentType : '';
  if (contentType.startsWith('image/')) return { contentType: 'image/png', data: png(id) };
  if (contentType === 'application/pdf')
    return { contentType, data: pdf([filename, `Anlage ${id}`]) };
  return {
    contentType: 'text/plain; charset=utf-8',
    data: Buffer.from(`${filename}\n${id}\n`, 'utf8'),
  };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SIDE = 16;

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A 16 × 16 RGB gradient whose colour is taken from the attachment id. */
function png(id: string): Buffer {
  const [r = 0, g = 0, b = 0] = createHash('sha256').update(id).digest();
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, no interlace
  const rows: number[] = [];
  for (let y = 0; y < SIDE; y++) {
    rows.push(0); // filter type "none" for this row
    for (let x = 0; x < SIDE; x++) rows.push(r ^ (x * 8), g ^ (y * 8), b);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const pdfText = (text: string): string =>
  text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);

/** A one-page A4 PDF showing `lines` in Helvetica, with a correct cross-reference table. */
function pdf(lines: readonly string[]): Buffer {
  const text = lines.map(
    (line, i) => `BT /F1 12 Tf 72 ${770 - i * 18} Td (${pdfText(line)}) Tj ET`,
  );
  const stream = text.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries.join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
