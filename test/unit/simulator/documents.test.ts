import { inflateSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { documentPdf, documentXml } from '../../../src/simulator/documents.js';
import { recordsOf, seedOf } from '../../support/simulator/seedFixtures.js';

const document = recordsOf(seedOf('A', 5), 'document')[0] ?? {};

/** The page's drawn text: pdf-lib writes it hex-encoded into flate-compressed streams. */
function pageText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const streams = [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => {
    const body = Buffer.from(m[1] ?? '', 'latin1');
    try {
      return inflateSync(body).toString('latin1');
    } catch {
      return body.toString('latin1');
    }
  });
  const hex = streams.join('\n').matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g);
  return [...hex].map((m) => Buffer.from(m[1] ?? '', 'hex').toString('latin1')).join('\n');
}

describe('documentPdf', () => {
  it('is a PDF that pdf-lib loads, with the document as title and its dates', async () => {
    const bytes = await documentPdf(document);
    expect(Buffer.from(bytes).toString('latin1', 0, 5)).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe(document.name);
    // PDF dates keep whole seconds.
    const seconds = (iso: unknown) => `${String(iso).slice(0, 19)}.000Z`;
    expect(pdf.getCreationDate()?.toISOString()).toBe(seconds(document.createdAt));
    expect(pdf.getModificationDate()?.toISOString()).toBe(seconds(document.updatedAt));
  });

  it('shows name, _id, patientId, therapy ids and dates on the page', async () => {
    const text = pageText(await documentPdf(document));
    for (const field of ['name', '_id', 'patientId', 'therapyId', 'therapyTypeId', 'createdAt']) {
      expect(text, field).toContain(String(document[field] as string | number));
    }
  });

  it('gives the same bytes for the same document', async () => {
    const first = await documentPdf(document);
    const second = await documentPdf({ ...document });
    expect(Buffer.from(second)).toEqual(Buffer.from(first));
    const other = await documentPdf({ ...document, _id: 'another-id' });
    expect(Buffer.from(other)).not.toEqual(Buffer.from(first));
  });

  it('renders characters Helvetica cannot show instead of failing', async () => {
    const bytes = await documentPdf({ ...document, name: 'Wunddokumentation ✓ Ärztin 名' });
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe('Wunddokumentation ? Ärztin ?');
  });
});

describe('documentXml', () => {
  it('is well-formed XML holding every field of the document', () => {
    const xml = documentXml(document);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ parseTagValue: false }).parse(xml) as {
      document: Record<string, string>;
    };
    expect(parsed.document._id).toBe(document._id);
    expect(parsed.document.patientId).toBe(document.patientId);
    expect(parsed.document.templateId).toBe(document.templateId);
    expect(parsed.document.therapyId).toBe(String(document.therapyId as number));
  });

  it('escapes markup in values and keeps nested objects and lists', () => {
    const xml = documentXml({
      _id: 'd-1',
      name: 'Lieferschein <Kopie> & Original',
      signature: { by: 'Müller', at: '2026-01-01' },
      pages: [1, 2],
      '1st note': 'x',
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ parseTagValue: false }).parse(xml) as {
      document: {
        name: string;
        signature: { by: string };
        pages: { item: string[] };
        _1st_note: string;
      };
    };
    expect(parsed.document.name).toBe('Lieferschein <Kopie> & Original');
    expect(parsed.document.signature.by).toBe('Müller');
    expect(parsed.document.pages.item).toEqual(['1', '2']);
    expect(parsed.document._1st_note).toBe('x');
  });

  it('is deterministic', () => {
    expect(documentXml({ ...document })).toBe(documentXml(document));
  });
});
