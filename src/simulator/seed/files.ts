import { DOCUMENT_TEMPLATES, WOUND_LOCATIONS } from './catalog/texts.js';
import type { SeedContext } from './context.js';
import { optional } from './pick.js';
import type { SeedRecord } from './record.js';
import { dateOnly, editorFields, isArchivedSlot } from './time.js';

/**
 * Completed forms, in the list item shape (no `timestamp`; `updatedAt` is what `createdAfter`
 * filters on), with the id of the template they were filled from.
 */
export function* documents(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  const templates = DOCUMENT_TEMPLATES.map((title) => ({ title, _id: faker.string.uuid() }));
  for (let i = 0; i < ctx.sizes.documents; i++) {
    const template = faker.helpers.arrayElement(templates);
    const patient = faker.helpers.arrayElement(ctx.refs.patients);
    const audit = editorFields(ctx, isArchivedSlot(i));
    const record = {
      _id: faker.string.uuid(),
      name: template.title,
      patientId: patient._id,
      therapyId: patient.therapy.id,
      therapyTypeId: faker.helpers.arrayElement(patient.therapy.therapyTypeIds),
      templateId: template._id,
      ...audit,
    };
    yield { resource: 'document', record };
  }
}

/** AttachmentType values are not published; the simulator uses 1 for photos, 2 for scans. */
const ATTACHMENT_KINDS = [
  { type: 1, contentType: 'image/png', prefix: 'Wundfoto', extension: 'png' },
  { type: 2, contentType: 'application/pdf', prefix: 'Verordnung', extension: 'pdf' },
] as const;

/**
 * Photos and scanned prescriptions. Their ids are opaque strings (the platform's file store
 * ids), not UUIDs; the audit fields live in `metadata`.
 */
export function* attachments(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.attachments; i++) {
    const kind = ATTACHMENT_KINDS[i % ATTACHMENT_KINDS.length] ?? ATTACHMENT_KINDS[0];
    const patient = faker.helpers.arrayElement(ctx.refs.patients);
    const audit = editorFields(ctx, isArchivedSlot(i));
    const woundLocation = kind.type === 1 ? faker.helpers.arrayElement(WOUND_LOCATIONS) : undefined;
    const record = {
      _id: faker.database.mongodbObjectId(),
      filename: `${kind.prefix}_${dateOnly(new Date(audit.createdAt))}_${i + 1}.${kind.extension}`,
      uploadDate: audit.createdAt,
      contentType: kind.contentType,
      authorizedPartnerInstitutions: [],
      createdByPartner: false,
      metadata: {
        patientId: patient._id,
        therapyId: patient.therapy.id,
        therapyTypeId: faker.helpers.arrayElement(patient.therapy.therapyTypeIds),
        ...optional('woundLocation', woundLocation),
        ...audit,
        relatedEntity: 'patient',
        type: kind.type,
      },
    };
    yield { resource: 'attachment', record };
  }
}
