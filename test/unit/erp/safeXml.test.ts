import { describe, expect, it } from 'vitest';
import { MAX_NESTING, MAX_XML_ELEMENTS } from '../../../src/erp/messages/bounds.js';
import { readOpenTrans } from '../../../src/erp/formats/openTrans/read.js';
import { readXml, xmlText } from '../../../src/erp/formats/xml/parse.js';
import { KINDS } from '../../support/inboxKinds.js';
import { orderResponse } from '../../support/erp/openTransAnswers.js';

/** A classic XXE: an external entity naming a local file, used in the document. */
const XXE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ORDERRESPONSE [
  <!ENTITY xxe SYSTEM "file:///etc/passwd">
]>
<ORDERRESPONSE xmlns="http://www.opentrans.org/XMLSchema/2.1" version="2.1">&xxe;</ORDERRESPONSE>
`;

/** An external DTD fetched over the network, and a parameter entity pulling in more. */
const REMOTE_DTD = `<?xml version="1.0"?>
<!DOCTYPE ORDERRESPONSE SYSTEM "http://127.0.0.1:9/evil.dtd" [
  <!ENTITY % remote SYSTEM "http://127.0.0.1:9/more.dtd"> %remote;
]>
<ORDERRESPONSE xmlns="http://www.opentrans.org/XMLSchema/2.1" version="2.1"/>
`;

/** Billion laughs: ten levels of ten references, 10^9 "lol"s once expanded. */
function billionLaughs(): string {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let n = 1; n <= 9; n += 1) {
    entities.push(`<!ENTITY lol${n} "${`&lol${n - 1};`.repeat(10)}">`);
  }
  return `<?xml version="1.0"?>
<!DOCTYPE lolz [
  ${entities.join('\n  ')}
]>
<ORDERRESPONSE xmlns="http://www.opentrans.org/XMLSchema/2.1" version="2.1">&lol9;</ORDERRESPONSE>
`;
}

describe('safe XML: every XML file from the ERP is read with DTDs refused', () => {
  it('refuses an XXE file at its DOCTYPE, before any entity is read', () => {
    const read = readXml(XXE);
    expect(read).toMatchObject({ ok: false, line: 2 });
    expect(read.ok ? '' : read.reason).toMatch(/DOCTYPE.*refused.*no entity is expanded/);
    expect(JSON.stringify(read)).not.toMatch(/root:/);
  });

  it('refuses an external DTD and parameter entities without fetching anything', () => {
    const read = readXml(REMOTE_DTD);
    expect(read).toMatchObject({ ok: false, line: 2 });
  });

  it('refuses a billion-laughs file at once, without expanding it', () => {
    const started = performance.now();
    const read = readXml(billionLaughs());
    expect(read).toMatchObject({ ok: false, line: 2 });
    expect(read.ok ? '' : read.reason).toMatch(/DOCTYPE/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses an entity reference no DOCTYPE declared; keeps the five of XML and character references', () => {
    expect(readXml('<a>&xxe;</a>')).toMatchObject({ ok: false });
    const read = readXml('<a>&lt;&amp;&gt;&quot;&apos;&#228;&#xE4;</a>');
    expect(read.ok && read.root.text).toBe(`<&>"'ää`);
  });

  it('bounds nesting and element count', () => {
    const deep = `${'<a>'.repeat(MAX_NESTING + 1)}${'</a>'.repeat(MAX_NESTING + 1)}`;
    expect(readXml(deep)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/nest/) as string,
    });
    const many = `<a>${'<b/>'.repeat(MAX_XML_ELEMENTS)}</a>`;
    expect(readXml(many)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/more than \d+ elements/) as string,
    });
  });

  it('reads ISO-8859-1 as declared, refuses UTF-16 and invalid UTF-8', () => {
    const latin = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>Köln</a>', 'latin1');
    const text = xmlText(latin);
    expect(text).toEqual({ ok: true, text: '<?xml version="1.0" encoding="UTF-8"?><a>Köln</a>' });
    expect(xmlText(Buffer.from('\uFEFF<a/>', 'utf16le'))).toMatchObject({ ok: false });
    expect(
      xmlText(Buffer.from([0x3c, 0x61, 0x3e, 0xc3, 0x28, 0x3c, 0x2f, 0x61, 0x3e])),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not valid UTF-8/) as string,
    });
  });

  it('refuses XXE and billion laughs in openTRANS before the schema check sees them', async () => {
    for (const file of [XXE, REMOTE_DTD, billionLaughs()]) {
      const read = await readOpenTrans(Buffer.from(file), KINDS);
      expect(read).toMatchObject({
        ok: false,
        reason: 'not readable as XML',
        problems: [{ line: 2, message: expect.stringMatching(/DOCTYPE/) as string }],
      });
    }
    // The same answer without a DOCTYPE is read.
    const clean = orderResponse({
      orderId: 'o-1',
      salesId: 'VK-1',
      lines: [{ lineItemId: 'l-1', quantity: 1 }],
    });
    expect(await readOpenTrans(Buffer.from(clean), KINDS)).toMatchObject({ ok: true });
  });
});
