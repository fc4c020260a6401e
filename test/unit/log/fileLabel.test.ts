import { describe, expect, it } from 'vitest';
import { createLogger, fileLabel, messageLabel } from '../../../src/log/index.js';

/** As ERPs name files (issue 38): after the patient, born and living where. */
const NORRIS = 'Norris_Arved_1933-11-23_Brueckenstr29c.json';
const NORRIS_PARTS = ['Norris', 'Arved', '1933-11-23', 'Brueckenstr'];

const found = (text: string) => NORRIS_PARTS.filter((part) => text.includes(part));

describe('fileLabel', () => {
  it('reduces a file name to a short hash of it and its extension', () => {
    const label = fileLabel(NORRIS);
    expect(label).toMatch(/^#[0-9a-f]{8}\.json$/);
    expect(fileLabel(NORRIS)).toBe(label);
    expect(fileLabel('Norris_Arved_1933-11-24_Brueckenstr29c.json')).not.toBe(label);
    expect(fileLabel('no-extension')).toMatch(/^#[0-9a-f]{8}$/);
    expect(fileLabel('odd.ext with space')).toMatch(/^#[0-9a-f]{8}$/);
  });

  it('keeps the row or order a message name adds to its file, and nothing else', () => {
    const label = fileLabel(NORRIS);
    expect(messageLabel(`${NORRIS}#row3`)).toBe(`${label}#row3`);
    expect(messageLabel(`${NORRIS}#3`)).toBe(`${label}#3`);
    expect(messageLabel(`${NORRIS}#2,5`)).toBe(`${label}#2,5`);
    const order = '3f6c2a1e-1111-4222-8333-444444444444';
    expect(messageLabel(`${NORRIS}#${order}`)).toBe(`${label}#${order}`);
    expect(messageLabel(`${NORRIS}:replay:2026-03-04T10:15:00.000Z`)).toBe(
      `${label}:replay:2026-03-04T10:15:00.000Z`,
    );
    expect(found(messageLabel(`${NORRIS}#Arved`))).toEqual([]);
  });
});

describe('file names in the log', () => {
  it('are reduced wherever the line names them: fields, paths and the message', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(line) },
    });
    const report = `/data/erp/inbox/.error/patient/${NORRIS}.error.json`;
    logger.warn(
      {
        kind: 'patient',
        file: NORRIS,
        reason: 'not JSON',
        movedTo: `/data/erp/inbox/.error/patient/${NORRIS}`,
        report,
      },
      `inbox: patient/${NORRIS} rejected: not JSON; see ${report}`,
    );
    logger.info(
      { kind: 'patient', messageName: `${NORRIS}#row2`, jobId: 4 },
      'inbox message queued',
    );
    const text = lines.join('');
    expect(found(text)).toEqual([]);
    const label = fileLabel(NORRIS);
    const [rejected, queued] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rejected).toMatchObject({
      file: label,
      movedTo: `/data/erp/inbox/.error/patient/${label}`,
      report: `/data/erp/inbox/.error/patient/${label}.error.json`,
      msg: `inbox: patient/${label} rejected: not JSON; see /data/erp/inbox/.error/patient/${label}.error.json`,
    });
    expect(queued).toMatchObject({ messageName: `${label}#row2`, jobId: 4 });
  });
});
