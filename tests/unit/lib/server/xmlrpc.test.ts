import { describe, expect, it } from 'vitest';
import { escapeXml, faultResponse, formatDate, methodResponse, parseMethodCall, XmlRpcFault } from '../../../../src/lib/server/xmlrpc.ts';

const callWith = (value: string) => `<?xml version="1.0"?><methodCall><methodName>x.y</methodName><params><param><value>${value}</value></param></params></methodCall>`;
const read = (value: string) => parseMethodCall(callWith(value)).params[0];

describe('parseMethodCall', () => {
  it('reads every XML-RPC type', () => {
    expect(read('plain &amp; text')).toBe('plain & text');
    expect(read('<string>&lt;p&gt;&#65;</string>')).toBe('<p>A');
    expect(read('<string><![CDATA[<b>raw</b>]]></string>')).toBe('<b>raw</b>');
    expect(read('<int>-42</int>')).toBe(-42);
    expect(read('<i4>7</i4>')).toBe(7);
    expect(read('<double>1.5</double>')).toBe(1.5);
    expect(read('<boolean>1</boolean>')).toBe(true);
    expect(read('<nil/>')).toBeNull();
    expect(read('<base64>aGk=</base64>')).toEqual(new Uint8Array([104, 105]));
    expect(read('<array><data><value><int>1</int></value><value>two</value></data></array>')).toEqual([1, 'two']);
    expect(read('<struct><member><name>a</name><value><int>1</int></value></member></struct>')).toEqual({ a: 1 });
  });

  it('reads dates as the site time (UTC) unless they say their zone', () => {
    for (const [text, iso] of [
      ['20261128T14:30:00', '2026-11-28T14:30:00.000Z'],
      ['2026-11-28T14:30:00', '2026-11-28T14:30:00.000Z'],
      ['20261128T14:30:00Z', '2026-11-28T14:30:00.000Z'],
      ['20261128T14:30:00-05:00', '2026-11-28T19:30:00.000Z'],
      ['20261128T14:30:00+0100', '2026-11-28T13:30:00.000Z'],
    ]) {
      expect((read(`<dateTime.iso8601>${text}</dateTime.iso8601>`) as Date).toISOString(), text).toBe(iso);
    }
  });

  it('keeps a member named __proto__ as a member, never as the prototype', () => {
    const value = read('<struct><member><name>__proto__</name><value><struct><member><name>polluted</name><value>yes</value></member></struct></value></member></struct>') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['<int>12x</int>', -32602],
    ['<int>99999999999999999</int>', -32602],
    ['<double>NaN</double>', -32602],
    ['<boolean>true</boolean>', -32602],
    ['<dateTime.iso8601>00000101T00:00:00</dateTime.iso8601>', -32602],
    ['<object>x</object>', -32600],
    ['<string>a</string><string>b</string>', -32600],
    ['<struct><member><name>a</name></member></struct>', -32600],
  ])('refuses %s', (value, code) => {
    expect(() => read(value)).toThrow(XmlRpcFault);
    try {
      read(value);
    } catch (error) {
      expect((error as XmlRpcFault).code).toBe(code);
    }
  });

  it('refuses what is not a method call', () => {
    for (const body of ['', 'text', '<methodResponse/>', '<methodCall/><methodCall/>', '<methodCall><methodName>bad name</methodName></methodCall>']) {
      expect(() => parseMethodCall(body), body).toThrow(XmlRpcFault);
    }
  });
});

describe('writing answers', () => {
  it('writes each type as WordPress does, dates without a zone in UTC', () => {
    expect(formatDate(new Date('2026-11-28T14:30:05.123Z'))).toBe('20261128T14:30:05');
    expect(methodResponse({ a: [1, 1.5, true, 'x<y', null, new Uint8Array([104, 105])] })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><params><param><value><struct><member><name>a</name><value><array><data>' +
        '<value><int>1</int></value><value><double>1.5</double></value><value><boolean>1</boolean></value><value><string>x&lt;y</string></value>' +
        '<value><string></string></value><value><base64>aGk=</base64></value></data></array></value></member></struct></value></param></params></methodResponse>\n',
    );
    expect(faultResponse(new XmlRpcFault(403, 'No.'))).toContain('<member><name>faultCode</name><value><int>403</int></value></member><member><name>faultString</name><value><string>No.</string></value></member>');
  });

  it('leaves out what XML 1.0 cannot carry, so an answer always parses', () => {
    expect(escapeXml('a\u0000b\u0007c\uD800d\t\n"\'&')).toBe('abcd\t\n&quot;&apos;&amp;');
    expect(parseMethodCall(callWith(`<string>${escapeXml('x\u0001<y>')}</string>`)).params[0]).toBe('x<y>');
  });
});
