import { PageSizes, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { create } from 'xmlbuilder2';

/**
 * The two renderings of a completed document (GET /document/{id}, `xml=true` or not). Both are
 * made from the stored list item alone, so the same document always renders to the same bytes.
 */

type XMLBuilder = ReturnType<typeof create>;

const PRODUCER = 'homecare-sync platform simulator';

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '–' : JSON.stringify(value);
}

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Helvetica knows WinAnsi only; anything outside Latin-1 would make pdf-lib throw. */
const printable = (value: string): string => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function pdfLines(document: Record<string, unknown>): Array<[string, string]> {
  return [
    ['Dokument-ID', text(document._id)],
    ['Patient', text(document.patientId)],
    ['Therapie', text(document.therapyId)],
    ['Therapieart', text(document.therapyTypeId)],
    ['Vorlage', text(document.templateId)],
    ['Erstellt am', text(document.createdAt)],
    ['Geändert am', text(document.updatedAt)],
  ];
}

/**
 * A one-page A4 PDF with the document's name, ids and dates. Its metadata dates are the
 * document's own (never the current time), so the bytes depend on the document only.
 */
export async function documentPdf(document: Record<string, unknown>): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const title = printable(text(document.name));
  pdf.setTitle(title);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  const created = dateOf(document.createdAt);
  const updated = dateOf(document.updatedAt) ?? created;
  if (created) pdf.setCreationDate(created);
  if (updated) pdf.setModificationDate(updated);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage(PageSizes.A4);
  const top = page.getHeight() - 72;
  page.drawText(title, { x: 72, y: top, size: 18, font: bold, color: rgb(0, 0, 0) });
  pdfLines(document).forEach(([label, value], i) => {
    const y = top - 40 - i * 20;
    page.drawText(`${label}:`, { x: 72, y, size: 11, font: bold });
    page.drawText(printable(value), { x: 180, y, size: 11, font: regular });
  });
  return pdf.save();
}

/** An XML element name for a JSON key (keys such as `_id` already are). */
function elementName(key: string): string {
  const name = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

function appendValue(parent: XMLBuilder, key: string, value: unknown): void {
  if (value === undefined) return;
  const element = parent.ele(elementName(key));
  if (value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) appendValue(element, 'item', item);
  } else if (typeof value === 'object') {
    for (const [childKey, child] of Object.entries(value)) appendValue(element, childKey, child);
  } else {
    element.txt(text(value));
  }
}

/** The document as well-formed XML: one element per field, nested objects and lists kept. */
export function documentXml(document: Record<string, unknown>): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('document');
  for (const [key, value] of Object.entries(document)) appendValue(root, key, value);
  return root.end({ prettyPrint: true });
}
