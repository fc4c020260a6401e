import { describe, expect, it } from 'vitest';
import { normaliseSecrets, personalValues, scrubText } from '../../../src/log/scrubText.js';

describe('scrubText', () => {
  it.each([
    [
      'GET /patient?lastName=M%C3%BCller&status=created',
      'GET /patient?lastName=[redacted]&status=created',
    ],
    ['sent Bearer eyJhbGciOi.payload.sig to the ERP', 'sent Bearer [redacted] to the ERP'],
    ['service-api-key: k-123 rejected', 'service-api-key: [redacted] rejected'],
    [
      '{"_id":"p1","email":"anna.schmidt@beispiel.de","status":1}',
      '{"_id":"p1","email":"[redacted]","status":1}',
    ],
    [
      '{\\"phone\\":\\"+49 30 1234\\",\\"_id\\":\\"p1\\"}',
      '{\\"phone\\":\\"[redacted]\\",\\"_id\\":\\"p1\\"}',
    ],
    ['{"numberOfInsured":"B98765', '{"numberOfInsured":"[redacted]"'],
    ['apiKeyFile: /run/secrets/api-key', 'apiKeyFile: /run/secrets/api-key'],
    ['status: 503, filename=lieferschein.pdf', 'status: 503, filename=lieferschein.pdf'],
  ])('%s', (input, expected) => {
    expect(scrubText(input, [])).toBe(expected);
  });

  it('replaces configured secret values anywhere, the longest first', () => {
    expect(scrubText('key=abc-123 and abc-123-long at x', ['abc-123-long', 'abc-123'])).toBe(
      'key=[redacted] and [redacted] at x',
    );
  });
});

describe('normaliseSecrets', () => {
  it('keeps the secrets of 8 characters or more, longest first, once each', () => {
    expect(
      normaliseSecrets(['t', 'k1', 'pw-1234', 'pw-12345', 'hc-live-7f3a9c2e', 'pw-12345']),
    ).toEqual(['hc-live-7f3a9c2e', 'pw-12345']);
  });
});

describe('personalValues', () => {
  it("gives a record's personal values at any depth, longest first, and none of its ids or statuses", () => {
    const order = {
      _id: 'o-1',
      salesId: 'SO-4711',
      status: 'created',
      deliveryAddress: {
        firstName: 'Hildegard',
        lastName: 'Zwiebelfisch',
        street: 'Quastenweg 17',
      },
      patient: [{ phone: '+49 30 5550172', city: 'X' }],
    };
    expect(personalValues(order)).toEqual([
      '+49 30 5550172',
      'Quastenweg 17',
      'Zwiebelfisch',
      'Hildegard',
    ]);
  });
});
