import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { api, useSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;
const PNG_BASE64 = Buffer.from('not really a png, but bytes').toString('base64');

describe('attachments (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });

  async function upload(key: string, body: Row = {}) {
    const patient = await sim().control.createRecord('patient', { lastName: 'A', regionId: 'r-1' });
    return api(sim(), 'POST', '/attachment', {
      key,
      body: {
        data: PNG_BASE64,
        metadata: { patientId: patient._id, type: 1 },
        mime: 'image/png',
        filename: 'wunde.png',
        ...body,
      },
    });
  }

  it('creates an attachment for a permitted key, with the region from the patient', async () => {
    const answer = await upload('demo-key');
    expect(answer.status).toBe(201);
    const attachment = answer.json as Row;
    expect(String(attachment._id)).toMatch(/^[0-9a-f]{24}$/);
    expect(attachment).toMatchObject({
      filename: 'wunde.png',
      contentType: 'image/png',
      metadata: { type: 1, regionId: 'r-1' },
    });
  });

  it('answers 403 to a key without the attachment right', async () => {
    const answer = await upload('demo-key-2');
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'forbidden' });
  });

  it('refuses a body without data or metadata.type, naming the field', async () => {
    const answer = await upload('demo-key', { metadata: { patientId: 'p' }, data: undefined });
    expect(answer.status).toBe(400);
    const problems = (answer.json as { problems: string[] }).problems.join(' | ');
    expect(problems).toContain('data is required');
    expect(problems).toContain('metadata.type is required');
  });

  it('lists without storage fields and internal metadata; archivedAfter adds archived ones', async () => {
    const { now: since } = await sim().control.moveClock({ offsetMs: 60_000 });
    await sim().control.moveClock({ offsetMs: 1000 });
    const created = (await upload('demo-key')).json as Row;
    const gone = await sim().control.createRecord('attachment', {
      filename: 'alt.pdf',
      metadata: { patientId: 'p', archived: true },
    });
    const listed = await api(sim(), 'GET', `/attachment?createdAfter=${since}`, {
      key: 'demo-key-2',
    });
    const rows = listed.json as Row[];
    expect(rows.map((r) => r._id)).toEqual([created._id]);
    for (const field of ['md5', 'length', 'chunkSize', 'timestamp']) {
      expect(rows[0]).not.toHaveProperty(field);
    }
    expect(rows[0]?.metadata).not.toHaveProperty('regionId');
    const withArchived = await api(
      sim(),
      'GET',
      `/attachment?createdAfter=${since}&archivedAfter=${since}`,
      { key: 'demo-key-2' },
    );
    expect((withArchived.json as Row[]).map((r) => r._id).sort()).toEqual(
      [created._id, gone._id].sort(),
    );
  });
});

describe('attachment download and customer mapping (variant C)', () => {
  const sim = useSimulator({ variant: 'C' });

  it('downloads a seeded attachment with its content type', async () => {
    const list = await api(sim(), 'GET', '/attachment');
    const image = (list.json as Row[]).find((a) => a.contentType === 'image/png');
    expect(image).toBeDefined();
    const response = await fetch(`${sim().url}/attachment/${String(image?._id)}`, {
      headers: { 'service-api-key': 'demo-key' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('maps an ERP customerId to the platform patient', async () => {
    const patient = await sim().control.createRecord('patient', { customerId: 'KD-4711' });
    const answer = await api(sim(), 'GET', '/patient/customerMapping?customerId=KD-4711');
    expect(answer.json).toEqual({
      _id: patient._id,
      customerId: 'KD-4711',
      updatedAt: patient.updatedAt,
    });
    expect((await api(sim(), 'GET', '/patient/customerMapping?customerId=none')).status).toBe(404);
    expect((await api(sim(), 'GET', '/patient/customerMapping')).status).toBe(400);
  });
});

describe('documents', () => {
  const sim = useSimulator({ variant: 'A' });

  it('delivers a document as PDF, or as XML with xml=true', async () => {
    const list = await api(sim(), 'GET', '/document?createdAfter=2000-01-01T00:00:00Z');
    const first = (list.json as Row[])[0];
    expect(first).toBeDefined();
    const headers = { 'service-api-key': 'demo-key' };
    const pdf = await fetch(`${sim().url}/document/${String(first?._id)}`, { headers });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('ascii'),
    ).toBe('%PDF-');
    const xml = await fetch(`${sim().url}/document/${String(first?._id)}?xml=true`, { headers });
    expect(xml.headers.get('content-type')).toBe('application/xml');
    const parsed = new XMLParser().parse(await xml.text()) as Row;
    expect(Object.keys(parsed).length).toBeGreaterThan(0);
    expect(JSON.stringify(parsed)).toContain(String(first?._id));
  });

  it('filters the document list on updatedAt after createdAfter and by templateId', async () => {
    const all = (await api(sim(), 'GET', '/document?createdAfter=2000-01-01T00:00:00Z'))
      .json as Row[];
    const templateId = String(all[0]?.templateId);
    const ofTemplate = (
      await api(
        sim(),
        'GET',
        `/document?createdAfter=2000-01-01T00:00:00Z&templateId=${templateId}`,
      )
    ).json as Row[];
    expect(ofTemplate.length).toBeGreaterThan(0);
    expect(ofTemplate.every((d) => d.templateId === templateId)).toBe(true);
    const latest = [...all].sort((a, b) => String(a.updatedAt).localeCompare(String(b.updatedAt)));
    const last = latest.at(-1);
    const after = (
      await api(sim(), 'GET', `/document?createdAfter=${String(latest.at(-2)?.updatedAt)}`)
    ).json as Row[];
    expect(after.map((d) => d._id)).toEqual([last?._id]);
  });
});
