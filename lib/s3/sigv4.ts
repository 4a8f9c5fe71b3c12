/**
 * AWS Signature Version 4 as R2 checks it: header auth and presigned (query) auth, each check in
 * R2's order with R2's error (the order Miniflare reproduces from a real bucket:
 * docs/sources/r2-s3.md#authentication). HMAC-SHA256 comes from hmac.ts (native where there is one,
 * else WebCrypto), SHA-256 from lib/hash; no `node:` import.
 *
 * Without configured credentials any well-formed request is accepted: every format check runs,
 * the key and signature checks do not.
 */
import { utf8 } from '../bytes.js';
import { digestHex } from '../hash.js';
import { invalidArgument, invalidRequest, notImplemented, S3Error, s3Errors } from './errors.js';
import { hmacKey, hmacSha256, hmacSha256Hex, type HmacKey } from './hmac.js';
import { canonicalEncode } from './paths.js';
import type { TemporaryGrant, TemporaryLookup } from './temporary-access.js';

export interface S3Credential {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /**
   * For temporary credentials (R2's temp-access-credentials API): the session token requests carry
   * as `x-amz-security-token` (header or query). They reuse the parent's access key id with a
   * secret of their own, so a key id may appear several times, once per token.
   */
  readonly sessionToken?: string;
}

/** What authentication leaves for after the body is read. */
export interface Authenticated {
  readonly accessKeyId: string;
  /** Temporary credentials' grant, when the request's session token names minted ones (temporary-access.ts). */
  readonly grant?: TemporaryGrant;
  /** The payload hash the client signed: 64 hex to verify, or a mode. */
  readonly payload:
    | { readonly kind: 'sha256'; readonly hex: string }
    | { readonly kind: 'unsigned' }
    | { readonly kind: 'aws-chunked' };
}

export interface AuthRequest {
  readonly method: string;
  /** The parsed URL: its host only (the path and query come from `path` and `search`). */
  readonly url: URL;
  /** The path as the client wrote it (the raw request-target's): what the AWS SDK signs. */
  readonly path: string;
  /** The query as written, with its `?` ('' for none). */
  readonly search: string;
  readonly query: URLSearchParams;
  readonly headers: Headers;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const MAX_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGN_SECONDS = 604800;
/** R2 treats an empty region and us-east-1 as auto; the location hints also name regions. */
const REGIONS = new Set(['auto', 'us-east-1', '', 'wnam', 'enam', 'weur', 'eeur', 'apac', 'oc']);
/** A path of unreserved characters and slashes: canonical as it is. */
const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/;
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** The last date parsed and its value: a client's requests within one second carry the same date. */
let lastDate = '';
let lastDateMs: number | undefined;

/** `YYYYMMDDTHHMMSSZ` as epoch ms; undefined for anything else (RFC 1123, the extended form). */
function parseAmzDate(v: string): number | undefined {
  if (v === lastDate) return lastDateMs;
  lastDateMs = parseAmzDateAnew(v);
  lastDate = v;
  return lastDateMs;
}

function parseAmzDateAnew(v: string): number | undefined {
  const m = ISO_BASIC.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  // Reject dates that roll over (month 13, day 32...).
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return undefined;
  return ms;
}

/** RFC 3986 percent-encoding as SigV4 canonicalisation wants it (`!'()*` encoded too). */
export function encodeRfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The canonical query string: names and values re-encoded, sorted by name then value. A presigned
 * URL's `X-Amz-Signature` is left out once: a second one is an ordinary parameter, covered by the
 * signature like any other, so appending one to a URL breaks it (SigV4 leaves out "the" signature;
 * R2's and S3's answer to a repeated one is not established).
 */
function canonicalQuery(search: string, omitSignature: boolean): string {
  if (search.length <= 1) return '';
  const pairs: [string, string][] = [];
  let omitted = !omitSignature;
  for (const part of search.slice(1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = canonicalEncode(eq < 0 ? part : part.slice(0, eq));
    if (!omitted && name === 'X-Amz-Signature') {
      omitted = true;
      continue;
    }
    pairs.push([name, eq < 0 ? '' : canonicalEncode(part.slice(eq + 1))]);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([n, v]) => `${n}=${v}`).join('&');
}

/**
 * The canonical URIs to try: the path exactly as sent (what the AWS SDK signs for S3), then the
 * path decoded and re-encoded segment by segment (what aws4fetch signs). Production's rule for
 * the second is not established; accepting both keeps every well-behaved client working.
 */
function canonicalUris(pathname: string): string[] {
  if (PLAIN_PATH.test(pathname)) return [pathname];
  const reencoded = pathname.split('/').map(canonicalEncode).join('/');
  return reencoded === pathname ? [pathname] : [pathname, reencoded];
}

/**
 * The request's headers read once into a Map (lowercase names, values as `Headers#get` gives them):
 * the checks below read a dozen of them, and each `Headers#get` validates and lowercases its
 * argument again, which was a visible part of a small request's cost.
 */
type HeaderFields = ReadonlyMap<string, string>;

function headerFields(headers: Headers): HeaderFields {
  const fields = new Map<string, string>();
  headers.forEach((value, name) => {
    const before = fields.get(name);
    // Only set-cookie comes more than once; `get` joins its values so.
    fields.set(name, before === undefined ? value : `${before}, ${value}`);
  });
  return fields;
}

function canonicalHeaders(req: AuthRequest, fields: HeaderFields, signed: readonly string[]): string {
  let out = '';
  for (const name of signed) {
    const raw = name === 'host' ? (fields.get('host') ?? req.url.host) : (fields.get(name) ?? '');
    out += `${name}:${raw.trim().replace(/\s+/g, ' ')}\n`;
  }
  return out;
}

// ---- HMAC (hmac.ts), with derived signing keys kept per (secret, day, region, service) ----------

const signingKeys = new Map<string, HmacKey | Promise<HmacKey>>();

function signingKey(secret: string, day: string, region: string, service: string): HmacKey | Promise<HmacKey> {
  const id = `${secret}\n${day}\n${region}\n${service}`;
  let key = signingKeys.get(id);
  if (key === undefined) {
    key = (async () => {
      const kDate = await hmacSha256(utf8(`AWS4${secret}`), day);
      const kRegion = await hmacSha256(kDate, region);
      const kService = await hmacSha256(kRegion, service);
      return hmacKey(await hmacSha256(kService, 'aws4_request'));
    })();
    if (signingKeys.size > 256) signingKeys.clear();
    signingKeys.set(id, key);
    // Once derived, keep the key itself, so later requests take no extra turn of the event loop.
    void key.then((k) => signingKeys.get(id) === key && signingKeys.set(id, k));
  }
  return key;
}

/**
 * The SigV4 signature of a string to sign: lowercase hex; at once (no promise) once the signing key
 * is derived and the HMAC is native, so a request's check takes no turn of the event loop.
 */
function signature(
  secret: string,
  day: string,
  region: string,
  service: string,
  stringToSign: string,
): string | Promise<string> {
  const key = signingKey(secret, day, region, service);
  return key instanceof Promise ? key.then((k) => hmacSha256Hex(k, stringToSign)) : hmacSha256Hex(key, stringToSign);
}

/** The SigV4 signature of a string to sign: lowercase hex. Exported for clients built on it (tests). */
export async function signString(
  secret: string,
  day: string,
  region: string,
  service: string,
  stringToSign: string,
): Promise<string> {
  return signature(secret, day, region, service, stringToSign);
}

const spacedHex = (s: string) => Array.from(utf8(s), (b) => b.toString(16).padStart(2, '0')).join(' ');

interface Scope {
  readonly accessKeyId: string;
  readonly day: string;
  readonly region: string;
  readonly service: string;
}

/** The last credential that passed, with its day and scope: a client sends the same one all day. */
let lastCredential = { credential: '', requestDay: '', scope: undefined as Scope | undefined };

/** Checks 6–9 of the header order (shared with presigned URLs, whose message still names the header). */
function parseCredential(credential: string, requestDay: string): Scope {
  const last = lastCredential;
  if (last.scope && credential === last.credential && requestDay === last.requestDay) return last.scope;
  const scope = parseCredentialAnew(credential, requestDay);
  lastCredential = { credential, requestDay, scope };
  return scope;
}

function parseCredentialAnew(credential: string, requestDay: string): Scope {
  const parts = credential.split('/');
  if (parts.length < 5) {
    throw invalidArgument(`Credential sigv4 header should have at least 5 slash-separated parts, not ${parts.length}`);
  }
  const n = parts.length;
  const [day, region, service, terminator] = parts.slice(n - 4) as [string, string, string, string];
  const accessKeyId = parts.slice(0, n - 4).join('/');
  if (service !== 's3') throw invalidArgument(`Credential service should be s3, not ${service}`);
  if (terminator !== 'aws4_request')
    throw invalidArgument(`Credential termination string should be aws4_request, not ${terminator}`);
  if (!REGIONS.has(region)) {
    throw new S3Error(
      400,
      'InvalidRegionName',
      `The region name '${region}' is not valid. Must be one of: wnam, enam, weur, eeur, apac, oc, auto`,
    );
  }
  if (day !== requestDay) {
    throw invalidArgument(`Credential signed date ${day} does not match ${requestDay} from 'x-amz-date' header`);
  }
  return { accessKeyId, day, region, service };
}

export class Verifier {
  /** access key id → session token ('' for none) → secret. */
  private readonly secrets: Map<string, Map<string, string>> | undefined;

  constructor(
    credentials: readonly S3Credential[] | undefined,
    private readonly now: () => number,
    /** Minted temporary credentials (the account's): checked with their own secret even when no key pairs are configured. */
    private readonly temporary?: TemporaryLookup,
  ) {
    if (!credentials) return;
    this.secrets = new Map();
    for (const c of credentials) {
      let byToken = this.secrets.get(c.accessKeyId);
      if (!byToken) this.secrets.set(c.accessKeyId, (byToken = new Map()));
      byToken.set(c.sessionToken ?? '', c.secretAccessKey);
    }
  }

  /**
   * The secret for a key id and the request's session token, with the grant of minted temporary
   * credentials; undefined when no key pairs are configured and the token names none (any
   * well-formed signature passes then). An unknown token is refused as AWS refuses it (R2's answer
   * for a bad token is not established).
   */
  private secretFor(
    req: AuthRequest,
    fields: HeaderFields,
    accessKeyId: string,
  ): { secret: string; grant?: TemporaryGrant } | undefined {
    const token = fields.get('x-amz-security-token') ?? req.query.get('X-Amz-Security-Token') ?? '';
    const grant = token !== '' && this.temporary ? this.temporary(accessKeyId, token) : undefined;
    if (grant) return { secret: grant.secretAccessKey, grant };
    if (!this.secrets) return undefined;
    const byToken = this.secrets.get(accessKeyId);
    if (!byToken) throw s3Errors.unauthorized();
    const secret = byToken.get(token);
    if (secret === undefined) {
      if (token === '') throw s3Errors.unauthorized();
      throw new S3Error(400, 'InvalidToken', 'The provided token is malformed or otherwise invalid.');
    }
    return { secret };
  }

  /** Whether a request carries any credentials at all (R2 refuses anonymous S3 requests). */
  static carriesAuth(req: AuthRequest): boolean {
    return req.headers.has('authorization') || req.query.has('X-Amz-Credential');
  }

  /**
   * Authenticates a request, or throws R2's error for the first check that fails. The answer comes
   * at once (no promise) where the HMAC is native and the signing key derived: a promise per step
   * was a measurable part of a small request's cost. A caller awaits only a promise.
   */
  verify(req: AuthRequest): Authenticated | Promise<Authenticated> {
    if (req.headers.has('authorization')) return this.verifyHeader(req, headerFields(req.headers));
    if (req.query.has('X-Amz-Credential')) return this.verifyQuery(req, headerFields(req.headers));
    throw invalidArgument('Authorization');
  }

  private verifyHeader(req: AuthRequest, h: HeaderFields): Authenticated | Promise<Authenticated> {
    const contentSha = h.get('x-amz-content-sha256');
    if (contentSha === undefined) throw invalidRequest('Missing x-amz-content-sha256');
    const amzDate = h.get('x-amz-date');
    const dateValue = amzDate ?? h.get('date');
    if (dateValue === undefined) throw invalidArgument('No date provided in x-amz-date nor date header');
    const when = parseAmzDate(dateValue);
    if (when === undefined) {
      throw invalidArgument(
        `Date provided in '${amzDate !== undefined ? 'x-amz-date' : 'date'}' header (${dateValue}) didn't parse successfully`,
      );
    }
    if (Math.abs(this.now() - when) > MAX_SKEW_MS) throw s3Errors.requestTimeTooSkewed();

    const auth = h.get('authorization')!;
    if (!auth.startsWith(`${ALGORITHM} `)) throw invalidRequest(`Please use ${ALGORITHM}`);
    const fields = new Map<string, string>();
    for (const piece of auth.slice(ALGORITHM.length + 1).split(',')) {
      const eq = piece.indexOf('=');
      if (eq > 0) fields.set(piece.slice(0, eq).trim(), piece.slice(eq + 1).trim());
    }
    const credential = fields.get('Credential');
    const signedHeaders = fields.get('SignedHeaders');
    const signature = fields.get('Signature');
    if (credential === undefined || signedHeaders === undefined || signature === undefined) {
      throw invalidRequest(`Please use ${ALGORITHM}`);
    }
    const scope = parseCredential(credential, dateValue.slice(0, 8));
    const payload = payloadMode(contentSha);
    const key = this.secretFor(req, h, scope.accessKeyId);
    const authenticated: Authenticated = key?.grant
      ? { accessKeyId: scope.accessKeyId, grant: key.grant, payload }
      : { accessKeyId: scope.accessKeyId, payload };
    const checked = this.checkSignature(
      req,
      h,
      key?.secret,
      scope,
      dateValue,
      signedHeaders,
      signature,
      contentSha,
      false,
    );
    return checked ? checked.then(() => authenticated) : authenticated;
  }

  private verifyQuery(req: AuthRequest, fields: HeaderFields): Authenticated | Promise<Authenticated> {
    const q = req.query;
    const required = ['X-Amz-Algorithm', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders', 'X-Amz-Expires'];
    const missing = required.filter((p) => !q.has(p));
    if (missing.length === 1) throw invalidArgument(`Required search parameter ${missing[0]} missing`);
    // Two spaces after each comma: R2's text, verbatim.
    if (missing.length > 1) throw invalidArgument(`Required search parameters ${missing.join(',  ')} missing`);
    if (q.get('X-Amz-Algorithm') !== ALGORITHM) throw invalidRequest(`Please use ${ALGORITHM}`);
    const dateValue = q.get('X-Amz-Date')!;
    const when = parseAmzDate(dateValue);
    if (when === undefined)
      throw invalidArgument(`Date provided in X-Amz-Date (${dateValue}) didn't parse successfully`);
    const scope = parseCredential(q.get('X-Amz-Credential')!, dateValue.slice(0, 8));
    const key = this.secretFor(req, fields, scope.accessKeyId);
    const expiresText = q.get('X-Amz-Expires')!;
    if (!/^\s*-?\d+\s*$/.test(expiresText)) throw invalidArgument('X-Amz-Expires should be a number');
    const expires = Number(expiresText);
    if (expires > MAX_PRESIGN_SECONDS) {
      throw invalidArgument(
        'X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds',
      );
    }
    if (expires < 1 || this.now() > when + expires * 1000) throw s3Errors.expiredRequest();
    const payload = { kind: 'unsigned' } as const;
    const authenticated: Authenticated = key?.grant
      ? { accessKeyId: scope.accessKeyId, grant: key.grant, payload }
      : { accessKeyId: scope.accessKeyId, payload };
    const checked = this.checkSignature(
      req,
      fields,
      key?.secret,
      scope,
      dateValue,
      q.get('X-Amz-SignedHeaders')!,
      q.get('X-Amz-Signature')!,
      'UNSIGNED-PAYLOAD',
      true,
    );
    return checked ? checked.then(() => authenticated) : authenticated;
  }

  /**
   * Checks 11–12 (the key, check 10, was found by secretFor: `secret`, undefined when any signature
   * passes): `host` is signed, the signature matches (a promise only when the HMAC is).
   */
  private checkSignature(
    req: AuthRequest,
    fields: HeaderFields,
    secret: string | undefined,
    scope: Scope,
    amzDate: string,
    signedHeaderList: string,
    provided: string,
    payloadHash: string,
    presigned: boolean,
  ): void | Promise<void> {
    const signed = signedHeaderList.split(';').map((s) => s.trim().toLowerCase());
    if (secret === undefined) return refuseUnsignedAmzHeaders(fields, signed, presigned);
    if (!signed.includes('host')) throw s3Errors.unauthorized();
    const query = canonicalQuery(req.search, presigned);
    const headers = canonicalHeaders(req, fields, signed);
    const credentialScope = `${scope.day}/${scope.region}/${scope.service}/aws4_request`;
    const attempts = canonicalUris(req.path).map((uri): Attempt => {
      const canonical = [req.method, uri, query, headers, signed.join(';'), payloadHash].join('\n');
      const stringToSign = [ALGORITHM, amzDate, credentialScope, digestHex('sha256', canonical)].join('\n');
      return {
        canonical,
        stringToSign,
        expected: signature(secret, scope.day, scope.region, scope.service, stringToSign),
      };
    });
    const verdict = { fields, signed, presigned, provided, attempts };
    if (attempts.every((a) => typeof a.expected === 'string'))
      return judgeSignature(
        verdict,
        attempts.map((a) => a.expected as string),
      );
    return Promise.all(attempts.map((a) => a.expected)).then((expected) => judgeSignature(verdict, expected));
  }
}

/** One canonical form of a request (canonicalUris) and the signature it calls for. */
interface Attempt {
  readonly canonical: string;
  readonly stringToSign: string;
  readonly expected: string | Promise<string>;
}

/**
 * Accepts the request when a canonical form's signature is the one provided, else R2's
 * SignatureDoesNotMatch for the first form. Compared exactly: a signature is lower-case hex, and S3
 * and Miniflare's R2 (`timingSafeStringsEqual`) refuse an upper-cased one (issue 26).
 */
function judgeSignature(
  v: {
    fields: HeaderFields;
    signed: readonly string[];
    presigned: boolean;
    provided: string;
    attempts: readonly Attempt[];
  },
  expected: readonly string[],
): void {
  if (expected.includes(v.provided)) return refuseUnsignedAmzHeaders(v.fields, v.signed, v.presigned);
  const first = v.attempts[0]!;
  throw new S3Error(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your secret access key and signing method.',
    [
      ['StringToSign', first.stringToSign],
      ['StringToSignBytes', spacedHex(first.stringToSign)],
      ['CanonicalRequest', first.canonical],
      ['CanonicalRequestBytes', spacedHex(first.canonical)],
      ['SignatureProvided', v.provided],
    ],
  );
}

/**
 * Every `x-amz-*` header a request carries must be signed, or S3 refuses it: 403 AccessDenied
 * "There were headers present in the request which were not signed" with a `HeadersNotSigned`
 * element listing them, for presigned URLs (soto-project/soto#374: an unsigned `x-amz-acl`) and for
 * header auth alike (rclone/rclone#4303: an unsigned `x-amz-meta-*` through rclone's header auth).
 * R2's answer is not established (Miniflare's S3 checks no such thing); S3's is followed, because
 * obeying an unsigned header lets whoever holds a presigned PUT URL turn it into a copy of another
 * object (`x-amz-copy-source`) or store metadata its signer never chose. Header auth leaves
 * `x-amz-content-sha256` out of the rule, as S3 does (demarche-numerique/ds_proxy#164): its value
 * is checked against the body anyway. Checked without configured credentials too: which headers
 * are signed is known without the keys.
 */
function refuseUnsignedAmzHeaders(fields: HeaderFields, signed: readonly string[], presigned: boolean): void {
  const unsigned: string[] = [];
  for (const name of fields.keys()) {
    if (!name.startsWith('x-amz-') || signed.includes(name)) continue;
    if (!presigned && name === 'x-amz-content-sha256') continue;
    unsigned.push(name);
  }
  if (unsigned.length) {
    throw new S3Error(403, 'AccessDenied', 'There were headers present in the request which were not signed', [
      ['HeadersNotSigned', unsigned.join(', ')],
    ]);
  }
}

/**
 * What `x-amz-content-sha256` promises about the body. Signed streaming (each chunk signed) is not
 * supported by R2 (soto-project/soto#643); unsigned aws-chunked bodies with a trailing checksum
 * (the AWS SDKs' default for streams since 2025) are decoded.
 */
function payloadMode(value: string): Authenticated['payload'] {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return { kind: 'sha256', hex: value.toLowerCase() };
  if (value === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER') return { kind: 'aws-chunked' };
  if (value.startsWith('STREAMING-AWS4-HMAC-SHA256-PAYLOAD') || value === 'STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD') {
    throw notImplemented(value);
  }
  return { kind: 'unsigned' };
}
