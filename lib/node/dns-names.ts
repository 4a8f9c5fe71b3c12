/**
 * Domain names between the wire (length-prefixed labels of any bytes, RFC 1035 §3.1) and the text the
 * model reads (RFC 1035 §5.1 presentation form). `dns-packet` reads labels as UTF-8 and joins them
 * with dots, so `a\.b.example.com` (a dot inside a label) and `\200.example.com` (a byte that is not
 * UTF-8) come out changed; Knot and NSD answer such names from the zone (issue 26, point 3). Here a
 * label byte that is not printable ASCII, or is `.` or `\`, is written `\DDD`, so the model can split
 * names on dots and never meets a name the API could have stored.
 */

/** Wire bytes of one label → presentation form. */
function labelText(buf: Buffer, start: number, end: number): string {
  let out = '';
  let plain = start;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b > 0x20 && b < 0x7f && b !== 0x2e && b !== 0x5c) continue;
    out += buf.toString('latin1', plain, i) + `\\${String(b).padStart(3, '0')}`;
    plain = i + 1;
  }
  return out + buf.toString('latin1', plain, end);
}

/**
 * The uncompressed name at `offset` (a question's name, RFC 1035 §4.1.2) as presentation text without
 * the final dot ('.' for the root), and where it ends; undefined when it runs past the message, holds
 * a compression pointer (a question's name has nothing before it to point at) or exceeds 255 bytes.
 */
export function readName(buf: Buffer, offset: number): { name: string; end: number } | undefined {
  const labels: string[] = [];
  let at = offset;
  for (;;) {
    if (at >= buf.length) return undefined;
    const len = buf[at]!;
    if (len === 0) break;
    if (len > 63 || at + 1 + len > buf.length) return undefined;
    labels.push(labelText(buf, at + 1, at + 1 + len));
    at += 1 + len;
  }
  if (at + 1 - offset > 255) return undefined;
  return { name: labels.length ? labels.join('.') : '.', end: at + 1 };
}

/** Where the uncompressed name at `offset` ends (after its root label), or undefined as `readName`. */
export function nameEnd(buf: Buffer, offset: number): number | undefined {
  let at = offset;
  while (at < buf.length) {
    const len = buf[at]!;
    if (len === 0) return at + 1 - offset > 255 ? undefined : at + 1;
    if (len > 63) return undefined;
    at += 1 + len;
  }
  return undefined;
}

const NEEDS_PARSE = /\\/;

/**
 * A presentation name (`\DDD` and `\X` escapes, a final dot optional) as wire labels, without the
 * root's empty label. Labels are UTF-8 like `dns-packet` writes them. Throws on a label over 63 bytes.
 */
export function nameLabels(name: string): Buffer[] {
  const text = name.endsWith('.') && !name.endsWith('\\.') ? name.slice(0, -1) : name;
  if (text === '' || text === '.') return [];
  if (!NEEDS_PARSE.test(text)) return text.split('.').map(checked);
  const labels: Buffer[] = [];
  let bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '.') {
      labels.push(checked(Buffer.from(bytes)));
      bytes = [];
    } else if (c === '\\' && /^\d{3}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(Number(text.slice(i + 1, i + 4)) & 0xff);
      i += 3;
    } else {
      const escaped = c === '\\' && i + 1 < text.length ? text[++i]! : c;
      bytes.push(...Buffer.from(escaped));
    }
  }
  labels.push(checked(Buffer.from(bytes)));
  return labels;
}

function checked(label: string | Buffer): Buffer {
  const b = typeof label === 'string' ? Buffer.from(label) : label;
  if (b.length === 0 || b.length > 63) throw new Error(`label of ${b.length} bytes`);
  return b;
}
