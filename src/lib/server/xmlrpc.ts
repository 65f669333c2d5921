/**
 * XML-RPC (xmlrpc.com's specification, as WordPress's `xmlrpc.php` speaks it): reading a `<methodCall>` into its
 * method name and parameters, and writing a `<methodResponse>` or a `<fault>`. The XML is read with htmlparser2
 * (the site's HTML parser) in XML mode, which never expands entities a document declares itself (no entity
 * bombs, no external entities): only XML's own five and character references are decoded. Values are bounded: a
 * nesting depth, integers that are integers, dates and base64 that parse; anything else is a fault naming it.
 */
import { parseDocument } from 'htmlparser2';

/** A value as XML-RPC carries it (a struct is a plain object without a prototype's keys; base64 is bytes). */
export type XmlRpcValue = string | number | boolean | Date | Uint8Array | null | XmlRpcValue[] | XmlRpcStruct;
export type XmlRpcStruct = { [member: string]: XmlRpcValue };

/** A fault to answer: XML-RPC's `faultCode` (WordPress's use: 403 bad credentials, 401 not allowed, 404 not found…) and text. */
export class XmlRpcFault extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The spec's codes for a request that is not a well-formed call (the XML-RPC "specification for fault code interoperability"). */
export const NOT_WELL_FORMED = -32700;
export const INVALID_CALL = -32600;
export const NO_SUCH_METHOD = -32601;
export const INVALID_PARAMS = -32602;

/** How deep arrays and structs may nest: deeper than any publishing call, shallow enough to stay cheap. */
const MAX_DEPTH = 32;

/** The parts of htmlparser2's DOM this reader looks at. */
type Node = { type: string; name?: string; data?: string; children?: Node[] };

const elements = (node: Node): Node[] => (node.children ?? []).filter((child) => child.type === 'tag');
const text = (node: Node): string => (node.children ?? []).map((child) => (child.type === 'text' ? (child.data ?? '') : child.type === 'cdata' ? text(child) : '')).join('');
const child = (node: Node, name: string): Node | undefined => elements(node).find((each) => each.name === name);

/** A `<methodCall>`: its method's name and its parameters. Throws XmlRpcFault for a document that is not one. */
export function parseMethodCall(xml: string): { methodName: string; params: XmlRpcValue[] } {
  const root = elements(parseDocument(xml, { xmlMode: true }) as Node);
  const call = root.length === 1 && root[0]!.name === 'methodCall' ? root[0]! : null;
  if (!call) throw new XmlRpcFault(NOT_WELL_FORMED, 'parse error. not well formed: the body is not an XML-RPC <methodCall>.');
  const methodName = text(child(call, 'methodName') ?? { type: 'tag' }).trim();
  if (!/^[A-Za-z0-9_.:/]{1,100}$/.test(methodName)) throw new XmlRpcFault(INVALID_CALL, 'server error. invalid xml-rpc. not conforming to spec: no <methodName>.');
  const params = child(call, 'params');
  return {
    methodName,
    params: params
      ? elements(params).map((param) => {
          const value = param.name === 'param' ? child(param, 'value') : undefined;
          if (!value) throw new XmlRpcFault(INVALID_CALL, 'server error. invalid xml-rpc. not conforming to spec: a <param> without a <value>.');
          return readValue(value, 0);
        })
      : [],
  };
}

function readValue(value: Node, depth: number): XmlRpcValue {
  if (depth > MAX_DEPTH) throw new XmlRpcFault(INVALID_PARAMS, `The parameters nest deeper than ${MAX_DEPTH} levels.`);
  const [typed, ...more] = elements(value);
  // No type element: a string, as the specification says.
  if (!typed) return text(value);
  if (more.length) throw new XmlRpcFault(INVALID_CALL, 'A <value> holds more than one value.');
  const content = text(typed);
  switch (typed.name) {
    case 'string':
      return content;
    case 'int':
    case 'i4':
    case 'i8': {
      if (!/^\s*[+-]?\d{1,16}\s*$/.test(content) || !Number.isSafeInteger(Number(content))) throw new XmlRpcFault(INVALID_PARAMS, `"${content.slice(0, 40)}" is not an integer.`);
      return Number(content);
    }
    case 'double': {
      const number = Number(content.trim());
      if (content.trim() === '' || !Number.isFinite(number)) throw new XmlRpcFault(INVALID_PARAMS, `"${content.slice(0, 40)}" is not a number.`);
      return number;
    }
    case 'boolean': {
      if (!['0', '1'].includes(content.trim())) throw new XmlRpcFault(INVALID_PARAMS, `"${content.slice(0, 40)}" is not a boolean (0 or 1).`);
      return content.trim() === '1';
    }
    case 'dateTime.iso8601':
      return readDate(content);
    case 'base64':
      return new Uint8Array(Buffer.from(content.replace(/\s+/g, ''), 'base64'));
    case 'nil':
      return null;
    case 'array':
      return elements(child(typed, 'data') ?? { type: 'tag' }).filter((each) => each.name === 'value').map((each) => readValue(each, depth + 1));
    case 'struct':
      // fromEntries defines own properties: a member named __proto__ stays a member.
      return Object.fromEntries(
        elements(typed)
          .filter((member) => member.name === 'member')
          .map((member) => {
            const name = child(member, 'name');
            const memberValue = child(member, 'value');
            if (!name || !memberValue) throw new XmlRpcFault(INVALID_CALL, 'A <member> needs a <name> and a <value>.');
            return [text(name), readValue(memberValue, depth + 1)];
          }),
      );
    default:
      throw new XmlRpcFault(INVALID_CALL, `<${String(typed.name).slice(0, 40)}> is not an XML-RPC type.`);
  }
}

/**
 * A dateTime.iso8601: `20261128T14:30:00` (the specification's form; WordPress's clients send it in the site's
 * time zone, which this site declares as UTC), or with dashes, fractions of a second, `Z` or an offset.
 */
function readDate(content: string): Date {
  const match = content.trim().match(/^(\d{4})-?(\d{2})-?(\d{2})T(\d{2}):?(\d{2}):?(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/);
  const date = match ? new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}${normalizedZone(match[7])}`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1) throw new XmlRpcFault(INVALID_PARAMS, `"${content.slice(0, 40)}" is not a date.`);
  return date;
}

const normalizedZone = (zone: string | undefined) => (!zone || zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`);

/** A successful answer. */
export function methodResponse(value: XmlRpcValue): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><params><param><value>${writeValue(value)}</value></param></params></methodResponse>\n`;
}

/** A fault answer (sent with HTTP 200, as XML-RPC answers every call that reached the server). */
export function faultResponse(fault: XmlRpcFault): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<methodResponse><fault><value>${writeValue({ faultCode: fault.code, faultString: fault.message })}</value></fault></methodResponse>\n`;
}

/** A date as WordPress writes one: `YYYYMMDDTHH:MM:SS`, in UTC (the site's time zone). */
export function formatDate(date: Date): string {
  return date.toISOString().replace(/-/g, '').replace(/\.\d{3}Z$/, '');
}

function writeValue(value: XmlRpcValue): string {
  if (value === null || value === undefined) return '<string></string>';
  if (typeof value === 'string') return `<string>${escapeXml(value)}</string>`;
  if (typeof value === 'boolean') return `<boolean>${value ? 1 : 0}</boolean>`;
  if (typeof value === 'number') return Number.isInteger(value) ? `<int>${value}</int>` : `<double>${value}</double>`;
  if (value instanceof Date) return `<dateTime.iso8601>${formatDate(value)}</dateTime.iso8601>`;
  if (value instanceof Uint8Array) return `<base64>${Buffer.from(value).toString('base64')}</base64>`;
  if (Array.isArray(value)) return `<array><data>${value.map((item) => `<value>${writeValue(item)}</value>`).join('')}</data></array>`;
  return `<struct>${Object.entries(value)
    .map(([name, member]) => `<member><name>${escapeXml(name)}</name><value>${writeValue(member)}</value></member>`)
    .join('')}</struct>`;
}

/** Text as XML may carry it: its five special characters escaped, the characters XML 1.0 cannot hold left out. */
export function escapeXml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
