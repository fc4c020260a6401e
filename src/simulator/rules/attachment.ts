import { createHash, randomBytes } from 'node:crypto';
import { SimHttpError } from '../httpError.js';
import { patientRegion } from './references.js';
import type { WriteRules } from './types.js';

/**
 * POST /attachment (variant B): only keys with the attachment right may create (else 403); the
 * base64 `data` is kept as the file, the record carries its metadata with the patient's region.
 */
export const attachmentRules: WriteRules = {
  newId: () => randomBytes(12).toString('hex'),
  file: (body) => ({
    contentType: String(body.mime),
    data: Buffer.from(String(body.data), 'base64'),
  }),
  authorize(ctx) {
    if (!ctx.caller.attachments) {
      throw new SimHttpError(
        403,
        'forbidden',
        `the API key of client ${ctx.caller.client} may not create attachments`,
        ['service-api-key: this key has no permission to create attachments'],
      );
    }
  },
  create(ctx, body) {
    const metadata = body.metadata as Record<string, unknown>;
    const data = Buffer.from(String(body.data), 'base64');
    const now = ctx.clock.now().toISOString();
    return {
      filename: body.filename,
      contentType: body.mime,
      uploadDate: now,
      length: data.length,
      chunkSize: data.length,
      md5: createHash('md5').update(data).digest('hex'),
      createdByPartner: false,
      authorizedPartnerInstitutions: [],
      metadata: {
        ...metadata,
        regionId: patientRegion(ctx, metadata.patientId, 'metadata.patientId'),
        createdAt: now,
        createdBy: ctx.caller.client,
        updatedAt: now,
        updatedBy: ctx.caller.client,
        archived: false,
      },
    };
  },
};
