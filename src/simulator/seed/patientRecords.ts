import { DEVICE_NAMES } from './catalog/therapies.js';
import { HISTORY_STATUSES, NOTE_TEXTS, WOUND_LOCATIONS } from './catalog/texts.js';
import type { SeedContext } from './context.js';
import { optional } from './pick.js';
import type { SeedRecord } from './record.js';
import {
  auditFields,
  changeTimes,
  dateOnly,
  daysAfter,
  daysBefore,
  isArchivedSlot,
} from './time.js';

export function* patientNotes(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.patientNotes; i++) {
    const patient = faker.helpers.arrayElement(ctx.refs.patients);
    const record = {
      _id: faker.string.uuid(),
      noteText: faker.helpers.arrayElement(NOTE_TEXTS),
      patientId: patient._id,
      regionId: patient.regionId,
      edited: faker.datatype.boolean(0.2),
      status: faker.helpers.arrayElement([1, 2, 3]),
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: 'patientNote', record };
  }
}

/** History entries are a log: they carry no `_id` and never change (spec: all strings). */
export function* patientHistory(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.patientHistory; i++) {
    const patient = faker.helpers.arrayElement(ctx.refs.patients);
    const { therapy } = patient;
    const record = {
      status: faker.helpers.arrayElement(HISTORY_STATUSES),
      createdBy: faker.helpers.arrayElement(ctx.refs.userIds),
      createdAt: changeTimes(ctx, false).createdAt.toISOString(),
      entity: 'patient',
      entityId: patient._id,
      therapy: therapy.label,
      therapyType: String(faker.helpers.arrayElement(therapy.therapyTypeIds)),
      ...optional(
        'woundLocation',
        therapy.name === 'WoundCare' ? faker.helpers.arrayElement(WOUND_LOCATIONS) : undefined,
      ),
    };
    yield { resource: 'patientHistory', record };
  }
}

/** Devices lent to patients, with their safety inspection (STK) due dates. */
export function* devices(ctx: SeedContext): Generator<SeedRecord> {
  const { faker, now } = ctx;
  for (let i = 0; i < ctx.sizes.devices; i++) {
    const patient = faker.helpers.arrayElement(ctx.refs.patients);
    const article = faker.helpers.arrayElement(ctx.refs.articles);
    const commissioned = faker.date.past({ years: 3 });
    const lastService = faker.date.between({ from: daysBefore(now, 360), to: now });
    const record = {
      _id: faker.string.uuid(),
      patientId: patient._id,
      regionId: patient.regionId,
      articleId: article._id,
      articleNumber: article.customerNumber,
      serialNumber: `SN-${faker.string.alphanumeric({ length: 10, casing: 'upper' })}`,
      description: faker.helpers.arrayElement(DEVICE_NAMES),
      commissioningDate: dateOnly(commissioned),
      ownerName: 'Homecare Demo GmbH',
      deviceNumber: `G-${10001 + i}`,
      locked: false,
      repairEstimateRequired: false,
      maintenances: [
        {
          maintenanceCode: 'STK',
          maintenanceInterval: '12',
          lastServiceDate: dateOnly(lastService),
          nextServiceDate: dateOnly(daysAfter(lastService, 365)),
        },
      ],
      deviceInformationLines: [],
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: 'device', record };
  }
}
