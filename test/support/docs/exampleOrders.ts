import type { ResourceName } from '../../../src/contract/index.js';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import { enrich, type MirrorLookup } from '../../../src/deliver/enrich.js';

/**
 * The single orders the docs' outbox examples are written from: as the platform sends them,
 * then enriched from a mirror by the daemon's own `enrich`, so the examples show the fields the
 * ERP really gets.
 */
const USER = '0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b';
const REGION = 'f1e2d3c4-b5a6-4978-8a6b-5c4d3e2f1a09';

const mirror: Partial<Record<ResourceName, Record<string, Record<string, unknown>>>> = {
  patient: {
    '5b8d1e2f-7a3c-4f91-b6e4-0c2a9d8f1e37': {
      _id: '5b8d1e2f-7a3c-4f91-b6e4-0c2a9d8f1e37',
      customerId: 'K-10042',
      firstName: 'Erika',
      lastName: 'Mustermann',
      address: 'Hauptstraße 12',
      additionalAddress: 'Hinterhaus, 2. OG',
      postalCode: '50667',
      city: 'Köln',
      phone: '0221 4711230',
      birthday: '1941-05-17',
      careDegree: 3,
    },
    'e27f9c04-3b6a-4d18-a5c2-8f1b0e6d4a93': {
      _id: 'e27f9c04-3b6a-4d18-a5c2-8f1b0e6d4a93',
      customerId: 'K-10057',
      firstName: 'Hans',
      lastName: 'Meier',
      address: 'Poppelsdorfer Allee 88',
      postalCode: '53115',
      city: 'Bonn',
      phone: '0228 918273',
    },
  },
  article: {
    'a3c5e7f9-1b2d-4e6f-8a0c-2e4f6a8c0e12': {
      customerNumber: '100-2001',
      name: 'Saugkompresse steril 10 x 10 cm',
    },
    'b4d6f8a0-2c3e-4f70-9b1d-3f5a7b9d1f23': {
      customerNumber: '100-3150',
      name: 'Fixiervlies 10 cm, Meterware',
    },
    'c5e7a9b1-3d4f-4a81-8c2e-4a6b8c0e2a34': {
      customerNumber: '100-4410',
      name: 'Wundspüllösung 350 ml',
    },
  },
  integratedCare: {
    'd6f8b0c2-4e5a-4b92-9d3f-5b7c9d1f3b45': { salesId: 'VA-2026-00417' },
  },
};

const lookup: MirrorLookup = (resource, id) => mirror[resource]?.[id];

const line = (id: string, articleId: string, unit: string, quantity: number) => ({
  _id: id,
  articleId,
  unit,
  quantity,
  timestamp: '2026-03-02T07:44:58.120Z',
  archived: false,
});

const FIRST: Record<string, unknown> = {
  _id: '3f6c2a1e-8b4d-4e7a-9c15-2d7e0b9a4f61',
  timestamp: '2026-03-02T07:45:12.345Z',
  archived: false,
  createdAt: '2026-03-02T07:44:58.120Z',
  createdBy: USER,
  updatedAt: '2026-03-02T07:45:12.345Z',
  updatedBy: USER,
  regionId: REGION,
  salesId: null,
  patientId: '5b8d1e2f-7a3c-4f91-b6e4-0c2a9d8f1e37',
  integratedCareId: 'd6f8b0c2-4e5a-4b92-9d3f-5b7c9d1f3b45',
  doctorId: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
  creationDate: '2026-03-02T07:44:58.120Z',
  deliveryDate: '2026-03-04',
  startDate: '2026-03-01',
  endDate: '2026-03-31',
  deliveryInformation: 'Bitte bei Frau Schulz (Nr. 14) abgeben, falls niemand öffnet',
  annotation: 'Folgeversorgung März',
  deliveryAddress: {
    name: 'Erika Mustermann',
    address: 'Hauptstraße 12',
    additionalAddress: 'Hinterhaus, 2. OG',
    postalCode: '50667',
    city: 'Köln',
  },
  location: 4,
  expressDelivery: false,
  isGroupOrder: false,
  status: 0,
  prescriptionStatus: 'originalReceived',
  therapyId: 1,
  therapyTypeId: 3,
  orderedArticleLines: [
    line(
      '8e1a2b3c-4d5e-4f60-a172-839405a6b7c8',
      'a3c5e7f9-1b2d-4e6f-8a0c-2e4f6a8c0e12',
      'Packung',
      3,
    ),
    line('9f2b3c4d-5e6f-4a71-b283-94a516b7c8d9', 'b4d6f8a0-2c3e-4f70-9b1d-3f5a7b9d1f23', 'm', 2.5),
    line(
      'a03c4d5e-6f7a-4b82-83c4-a5b627c8d9ea',
      'c5e7a9b1-3d4f-4a81-8c2e-4a6b8c0e2a34',
      'Flasche',
      2,
    ),
  ],
};

const SECOND: Record<string, unknown> = {
  _id: '9a0e4c7b-1f3d-4b26-8e59-6c1d2a7f3b08',
  timestamp: '2026-03-02T08:03:41.907Z',
  archived: false,
  createdAt: '2026-03-02T08:03:40.016Z',
  createdBy: USER,
  updatedAt: '2026-03-02T08:03:41.907Z',
  updatedBy: USER,
  regionId: REGION,
  salesId: null,
  patientId: 'e27f9c04-3b6a-4d18-a5c2-8f1b0e6d4a93',
  creationDate: '2026-03-02T08:03:40.016Z',
  deliveryDate: '2026-03-03',
  deliveryAddress: {
    name: 'Hans Meier',
    address: 'Poppelsdorfer Allee 88',
    postalCode: '53115',
    city: 'Bonn',
  },
  expressDelivery: true,
  isGroupOrder: false,
  status: 0,
  therapyId: 1,
  therapyTypeId: 3,
  orderedArticleLines: [
    line(
      'b14d5e6f-7a8b-4c93-94d5-b6c738d9eafb',
      'a3c5e7f9-1b2d-4e6f-8a0c-2e4f6a8c0e12',
      'Packung',
      5,
    ),
  ],
};

function enriched(record: Record<string, unknown>): OutboundRecord {
  const result = enrich('singleOrder', record, lookup);
  if (!result.ok) {
    const missing = result.missing.map((m) => `${m.resource} ${m.id}`).join(', ');
    throw new Error(
      `the example order ${String(record._id)} refers to ${missing}, not in its mirror`,
    );
  }
  return {
    resource: 'singleOrder',
    id: String(record._id),
    version: String(record.timestamp),
    record: result.record,
  };
}

/** One enriched single order with three lines (one of them 2.5 m, for the decimal comma). */
export const exampleOrder = (): OutboundRecord => enriched(FIRST);

/** A second order of the same pull run, for the formats that write one file per run. */
export const secondExampleOrder = (): OutboundRecord => enriched(SECOND);
