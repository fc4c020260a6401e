import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';
import type { Logger } from '../../../src/log/index.js';
import { TransientError } from '../../../src/shared/errors.js';

const apiKey = 'hc-live-7f3a9c2e41b84d6f';
const erpToken = 'erp-tok-5b1d77e0c2a94e11';

const patient = {
  _id: '3f8e2b1c-4d5a-4e6f-9a7b-8c9d0e1f2a3b',
  customerId: 'K-100234',
  firstName: 'Erika',
  lastName: 'Mustermann',
  birthday: '1948-03-12',
  address: 'Heidestraße 17',
  additionalAddress: 'Hinterhaus, 2. OG',
  postalCode: '51147',
  phone: '+49 2203 123456',
  mobilePhone: '+49 171 9876543',
  email: 'erika.mustermann@beispiel.de',
  fax: '+49 2203 123457',
  comment: 'Schlüssel beim Nachbarn Herrn Özdemir',
  deactivationComment: 'verzogen nach Bonn',
  status: 'aktiv',
  careDegree: 3,
  payer: { payerId: 'ae5c0f6e-1111-4aaa-8bbb-0c0c0c0c0c0c', numberOfInsured: 'A123456789' },
  billingAddress: {
    name: 'Klaus Mustermann',
    address: 'Lindenallee 4',
    account: 'DE89370400440532013000',
  },
  deliveryAddress: { name: 'Erika Mustermann', address: 'Heidestraße 17', city: 'Köln' },
  careGivers: [
    {
      _id: 'c1c1c1c1-2222-4333-8444-555555555555',
      type: 1,
      firstName: 'Jürgen',
      lastName: 'Weißmüller',
      phone: '+49 221 5556677',
      email: 'j.weissmueller@beispiel.de',
    },
  ],
};

const doctor = {
  _id: 'd0d0d0d0-1111-4222-8333-444444444444',
  titleShort: 'Dr. med.',
  firstName: 'Sabine',
  lastName: 'Schäfer-Lindner',
  address: 'Praxis am Ring 3',
  phone: '+49 228 4433221',
  email: 'praxis.schaefer@beispiel.de',
  lifelongNumber: '123456601',
};

const user = {
  _id: 'u0u0u0u0-1111-4222-8333-444444444444',
  active: true,
  name: 'Jonas Becker',
  firstName: 'Jonas',
  lastName: 'Becker',
  userName: 'jbecker',
  mobilePhone: '+49 160 1122334',
};

const article = {
  _id: 'a1a1a1a1-1111-4222-8333-444444444444',
  customerNumber: 'ART-4711',
  status: 1,
};

const personalValues = [
  'Erika',
  'Mustermann',
  '1948-03-12',
  'Heidestraße',
  'Hinterhaus',
  '51147',
  'Köln',
  '2203 123456',
  '171 9876543',
  'erika.mustermann@beispiel.de',
  'Özdemir',
  'verzogen',
  'A123456789',
  'Lindenallee',
  'DE89370400440532013000',
  'Jürgen',
  'Weißmüller',
  'j.weissmueller@beispiel.de',
  'Sabine',
  'Schäfer-Lindner',
  'Praxis am Ring',
  'Jonas',
  'Becker',
  'jbecker',
  '160 1122334',
];
const secretValues = [apiKey, erpToken, 'demo-control'];

function capture(): { logger: Logger; output: () => string; lines: () => unknown[] } {
  const written: string[] = [];
  const logger = createLogger({
    level: 'debug',
    secrets: [apiKey, erpToken],
    destination: { write: (line: string) => void written.push(line) },
  });
  return {
    logger,
    output: () => written.join(''),
    lines: () => written.map((line) => JSON.parse(line) as unknown),
  };
}

function expectClean(output: string): void {
  for (const value of [...personalValues, ...secretValues]) {
    expect(output, `log output contains "${value}"`).not.toContain(value);
  }
}

describe('log redaction', () => {
  it('hides personal fields of patients, care givers, doctors and users at any depth', () => {
    const { logger, output, lines } = capture();
    logger.info({ patient, doctors: [doctor], users: [[user]], article }, 'pulled records');
    expectClean(output());
    expect(lines()[0]).toMatchObject({
      level: 'info',
      msg: 'pulled records',
      patient: {
        _id: patient._id,
        customerId: 'K-100234',
        status: 'aktiv',
        careDegree: 3,
        firstName: '[redacted]',
        careGivers: [{ _id: patient.careGivers[0]?._id, lastName: '[redacted]' }],
        payer: { numberOfInsured: '[redacted]' },
        postalCode: '[redacted]',
        deliveryAddress: { name: '[redacted]', city: '[redacted]' },
      },
      doctors: [{ _id: doctor._id, lifelongNumber: '123456601' }],
      users: [[{ _id: user._id, active: true }]],
      article: { customerNumber: 'ART-4711', status: 1 },
    });
  });

  it('hides credentials in headers of any case and secret values inside any string', () => {
    const { logger, output, lines } = capture();
    const error = new TransientError(
      `GET https://plattform.beispiel.de/api/patient?apiKey=${apiKey} failed with 503`,
      {
        resource: 'patient',
        id: patient._id,
        status: 503,
        bodyExcerpt: `{"_id":"${patient._id}","firstName":"Erika","lastName":"Musterm`,
      },
    );
    Object.assign(error, {
      headers: {
        'Service-Api-Key': apiKey,
        AUTHORIZATION: `Bearer ${erpToken}`,
        'sim-control-token': 'demo-control',
        'content-type': 'application/json',
      },
      body: { _id: patient._id, email: patient.email, customerId: 'K-100234' },
    });
    logger.error({ err: error, request: { headers: new Headers({ 'service-api-key': apiKey }) } });
    logger.warn(`retrying with Authorization: Bearer ${erpToken}`);

    expectClean(output());
    const [first, second] = lines();
    expect(first).toMatchObject({
      err: {
        type: 'TransientError',
        code: 'TRANSIENT',
        status: 503,
        id: patient._id,
        headers: { 'Service-Api-Key': '[redacted]', 'content-type': 'application/json' },
        body: { _id: patient._id, email: '[redacted]', customerId: 'K-100234' },
      },
      request: { headers: { 'service-api-key': '[redacted]' } },
    });
    expect(JSON.stringify(first)).toContain(`{\\"_id\\":\\"${patient._id}\\"`);
    expect(second).toMatchObject({ msg: 'retrying with Authorization: [redacted]' });
  });

  it('hides personal data in an error cause and keeps the cause chain readable', () => {
    const { logger, output, lines } = capture();
    const cause = Object.assign(new Error('validation of patient failed'), {
      record: patient,
      issues: [{ path: ['birthday'], received: patient.birthday }],
    });
    const error = new Error(`could not deliver patient ${patient._id}`, { cause });
    logger.error(error);

    expectClean(output());
    expect(lines()[0]).toMatchObject({
      msg: `could not deliver patient ${patient._id}`,
      err: {
        type: 'Error',
        cause: {
          message: 'validation of patient failed',
          record: { _id: patient._id, lastName: '[redacted]' },
        },
      },
    });
  });

  it('hides personal data in child logger bindings', () => {
    const { logger, output, lines } = capture();
    const child = logger.child({ resource: 'patient', record: patient });
    child.child({ careGiver: patient.careGivers[0] }).info('handed to the ERP');

    expectClean(output());
    expect(lines()[0]).toMatchObject({
      resource: 'patient',
      record: { _id: patient._id, customerId: 'K-100234' },
      careGiver: { _id: patient.careGivers[0]?._id },
      msg: 'handed to the ERP',
    });
  });

  it('survives circular structures', () => {
    const { logger, lines } = capture();
    const looped: Record<string, unknown> = { _id: patient._id, lastName: 'Mustermann' };
    looped.self = looped;
    logger.info({ looped });
    expect(lines()[0]).toMatchObject({
      looped: { _id: patient._id, lastName: '[redacted]', self: '[circular]' },
    });
  });
});
