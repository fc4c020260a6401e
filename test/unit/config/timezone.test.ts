import { describe, expect, it } from 'vitest';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { load, problems } = useConfigLoader();

describe('timezone', () => {
  it('takes an IANA name and refuses anything else, naming the key', async () => {
    const { config } = await load(`${MINIMAL}timezone: Europe/Berlin\n`);
    expect(config.timezone).toBe('Europe/Berlin');
    expect(await problems(`${MINIMAL}timezone: Mars/Olympus\n`)).toEqual([
      'timezone: "Mars/Olympus" is not a time zone; give an IANA name such as "UTC" or "Europe/Berlin"',
    ]);
  });

  it('is what the CSV date-times use unless erp.file.csv.timeZone says otherwise', async () => {
    const zone = (yaml: string) => load(yaml).then((l) => l.config.erp.file.csv.timeZone);
    expect(await zone(MINIMAL)).toBe('Europe/Berlin');
    expect(await zone(`${MINIMAL}timezone: America/New_York\n`)).toBe('America/New_York');
    const both = `${MINIMAL}timezone: UTC\nerp: { file: { csv: { timeZone: Asia/Tokyo } } }\n`;
    expect(await zone(both)).toBe('Asia/Tokyo');
  });
});

describe('erp.file.csv.profile', () => {
  it('de sets the German habits in one switch', async () => {
    const { config } = await load(`${MINIMAL}erp: { file: { csv: { profile: de } } }\n`);
    expect(config.erp.file.csv).toMatchObject({
      delimiter: ';',
      decimalComma: true,
      encoding: 'windows-1252',
      lineEnding: 'crlf',
      dateFormat: 'de',
      timeZone: 'Europe/Berlin',
    });
  });

  it('lets single options override the profile', async () => {
    const yaml = `${MINIMAL}erp: { file: { csv: { profile: de, encoding: utf-8-bom, delimiter: "," } } }\n`;
    const { config } = await load(yaml);
    expect(config.erp.file.csv).toMatchObject({
      delimiter: ',',
      encoding: 'utf-8-bom',
      decimalComma: true,
      lineEnding: 'crlf',
    });
  });

  it('names the profiles there are', async () => {
    expect(await problems(`${MINIMAL}erp: { file: { csv: { profile: at } } }\n`)).toEqual([
      'erp.file.csv.profile: expected de, got "at"',
    ]);
  });
});
