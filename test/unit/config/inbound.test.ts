import { describe, expect, it } from 'vitest';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { load, problems } = useConfigLoader();

describe('inbound', () => {
  it('refuses unknown fields of ERP messages unless told to drop them', async () => {
    expect((await load(MINIMAL)).config.inbound).toEqual({ unknownFields: 'refuse' });
    const drop = await load(`${MINIMAL}inbound: { unknownFields: drop }\n`);
    expect(drop.config.inbound).toEqual({ unknownFields: 'drop' });
  });

  it('takes only refuse or drop, and no other key', async () => {
    const found = await problems(`${MINIMAL}inbound: { unknownFields: keep, extra: 1 }\n`);
    expect(found).toEqual([
      'inbound.unknownFields: expected refuse or drop, got "keep"',
      expect.stringMatching(/^inbound\.extra: unknown key; valid keys here: unknownFields/),
    ]);
  });
});
