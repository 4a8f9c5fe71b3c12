import { expect } from '../runner.js';
import { runClientGroups } from '../register.js';
import type { R2ApiDifferenceId } from './differences.js';
import { v4Request, type ApiReply } from '../v4-request.js';

export type { ApiReply };

/** Something the R2 control-plane suite can run against: a fetch, a base URL, an account and credentials. */
export interface R2ApiTarget {
  /** Shown in test names and the summary table; default the base URL's host. */
  name?: string;
  /** A standard fetch (the double's `api.fetch`, or `globalThis.fetch` for the real API). */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Up to and including `/client/v4`, e.g. `https://api.cloudflare.com/client/v4`. */
  baseUrl: string;
  accountId: string;
  /** Headers that authenticate with R2 write permission: `{authorization: 'Bearer …'}`. */
  auth: Record<string, string>;
  /**
   * Puts an object in a bucket (the suite's only need of the data plane: a bucket that is not empty).
   * Absent: the tests that need one are skipped and say why.
   */
  putObject?: (bucket: string, key: string, body: string, jurisdiction?: string) => Promise<void>;
  /** Removes an object `putObject` put (cleanup); rejects when the target refuses (a locked object). */
  deleteObject?: (bucket: string, key: string, jurisdiction?: string) => Promise<void>;
  /** Whether the bucket holds an object at `key` now (the lifecycle and lock tests); absent: they are skipped. */
  objectExists?: (bucket: string, key: string, jurisdiction?: string) => Promise<boolean>;
  /**
   * R2's S3 endpoint over the same account (path style, e.g. `https://<account>.r2.cloudflarestorage.com`)
   * and an R2 key pair, for the tests that set a bucket's configuration through S3 and read it through
   * the API; `fetch` replaces the network (the double's `S3Api#fetch`). Absent: those tests are skipped.
   */
  s3?: {
    endpoint: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
    /** Replaces the network for the S3 requests (the double's `S3Api#fetch`). */
    fetch?: (request: Request) => Promise<Response>;
  };
  /**
   * A fetch that reaches the account's public bucket hosts (`https://pub-<hex>.r2.dev/<key>`, custom
   * domains): the double's `api.public.fetch`, the global fetch for the real edge. Absent: the tests
   * of a public GET are skipped.
   */
  publicFetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /** A zone of the account whose subdomains the custom-domain tests may connect (and remove). Absent: skipped. */
  zone?: { id: string; name: string };
  /** Headers of a valid credential without R2 permission, for the auth tests; absent: skipped. */
  authWithoutR2?: Record<string, string>;
  /** Headers of a valid credential with R2 read permission only; absent: skipped. */
  authReadOnly?: Record<string, string>;
  /** The known differences this target shows (differences.ts). */
  differences?: readonly R2ApiDifferenceId[];
  /** Run only these groups (by name); default all. */
  groups?: readonly string[];
  /** Per-test timeout (the real API is slower). */
  timeout?: number;
}

// Digits only, and a fixed prefix, so a real account's own buckets are never touched or listed by a filter.
const randomName = () =>
  `edt-${Math.floor(Math.random() * 1e10)
    .toString()
    .padStart(10, '0')}`;

/**
 * One test's view of the target: the buckets it makes are named `<prefix>-<label>` under a random
 * prefix, and whatever it made (buckets, and objects it put) is deleted after the test, so the
 * suite is safe on a real account.
 */
export class R2ApiClient {
  readonly prefix: string;
  /** Buckets made (name, jurisdiction), deleted after the test. */
  private readonly made: { name: string; jurisdiction?: string }[] = [];
  private readonly objects: { bucket: string; key: string; jurisdiction?: string }[] = [];
  /** Buckets given lock rules: cleared first at cleanup, so their objects can go. */
  private readonly locked = new Set<string>();
  /** Custom domains connected (bucket, domain) and buckets whose r2.dev domain was enabled: undone at cleanup. */
  private readonly connected: { bucket: string; domain: string }[] = [];
  private readonly published = new Set<string>();

  constructor(readonly target: R2ApiTarget) {
    this.prefix = randomName();
  }

  /** A bucket name of this test: `<prefix>-<label>`. */
  name(label = 'b'): string {
    return `${this.prefix}-${label}`;
  }

  /** A path under the account's `r2/buckets` collection. */
  url(path = '', accountId = this.target.accountId): string {
    return `${this.target.baseUrl}/accounts/${accountId}/r2/buckets${path}`;
  }

  /** A request to the target's `/client/v4`, authenticated as the target says; the reply's status and envelope. */
  async request(
    method: string,
    url: string,
    options: {
      json?: unknown;
      body?: BodyInit;
      headers?: Record<string, string>;
      auth?: Record<string, string> | false;
      jurisdiction?: string;
    } = {},
  ): Promise<ApiReply> {
    const headers: Record<string, string> = {
      ...(options.auth === false ? {} : (options.auth ?? this.target.auth)),
      ...options.headers,
    };
    if (options.jurisdiction !== undefined) headers['cf-r2-jurisdiction'] = options.jurisdiction;
    return v4Request(this.target.fetch, method, url, headers, options);
  }

  /** `POST /r2/buckets`; a bucket made is remembered for cleanup. */
  async create(body: Record<string, unknown>, jurisdiction?: string): Promise<ApiReply> {
    const r = await this.request('POST', this.url(), {
      json: body,
      ...(jurisdiction !== undefined ? { jurisdiction } : {}),
    });
    if (r.status === 200 && typeof body.name === 'string')
      this.made.push({ name: body.name, ...(jurisdiction !== undefined ? { jurisdiction } : {}) });
    return r;
  }

  /** Creates and insists on success; returns the bucket. */
  async make(label = 'b', fields: Record<string, unknown> = {}, jurisdiction?: string) {
    const name = this.name(label);
    const r = await this.create({ name, ...fields }, jurisdiction);
    expect(r.body?.errors, `create ${name}`).toEqual([]);
    expect(r.status).toBe(200);
    return name;
  }

  /** Reads a bucket. */
  get(name: string, jurisdiction?: string) {
    return this.request('GET', this.url(`/${name}`), jurisdiction !== undefined ? { jurisdiction } : {});
  }

  /** Deletes a bucket. */
  delete(name: string, jurisdiction?: string) {
    return this.request('DELETE', this.url(`/${name}`), jurisdiction !== undefined ? { jurisdiction } : {});
  }

  /** Lists only this test's buckets (`name_contains` its prefix), so a real account's own never show. */
  list(query = '', jurisdiction?: string): Promise<ApiReply> {
    const scope = `name_contains=${encodeURIComponent(this.prefix)}`;
    return this.request(
      'GET',
      this.url(`?${scope}${query ? '&' + query : ''}`),
      jurisdiction !== undefined ? { jurisdiction } : {},
    );
  }

  /** Writes an object into a bucket through the S3 endpoint (so a delete can be refused for a non-empty bucket). */
  async putObject(bucket: string, key: string, body: string, jurisdiction?: string): Promise<void> {
    await this.target.putObject!(bucket, key, body, jurisdiction);
    this.track(bucket, key, jurisdiction);
  }

  /** An object the test wrote another way (through S3): deleted at cleanup like those `putObject` put. */
  track(bucket: string, key: string, jurisdiction?: string): void {
    this.objects.push({ bucket, key, ...(jurisdiction !== undefined ? { jurisdiction } : {}) });
  }

  /** `GET /r2/buckets/{name}/lifecycle`. */
  lifecycle(name: string): Promise<ApiReply> {
    return this.request('GET', this.url(`/${name}/lifecycle`));
  }

  /** `PUT /r2/buckets/{name}/lifecycle` with `{ rules }`. */
  putLifecycle(name: string, rules: unknown): Promise<ApiReply> {
    return this.request('PUT', this.url(`/${name}/lifecycle`), { json: { rules } });
  }

  /** `GET /r2/buckets/{name}/lock`. */
  locks(name: string): Promise<ApiReply> {
    return this.request('GET', this.url(`/${name}/lock`));
  }

  /** `PUT /r2/buckets/{name}/lock` with `{ rules }`; the bucket's locks are cleared again at cleanup. */
  putLocks(name: string, rules: unknown): Promise<ApiReply> {
    this.locked.add(name);
    return this.request('PUT', this.url(`/${name}/lock`), { json: { rules } });
  }

  /** `PUT /r2/buckets/{name}/domains/managed` with `{ enabled }`; an enabled one is disabled again at cleanup. */
  setManaged(name: string, enabled: unknown): Promise<ApiReply> {
    if (enabled === true) this.published.add(name);
    return this.request('PUT', this.url(`/${name}/domains/managed`), { json: { enabled } });
  }

  /** `POST /r2/buckets/{name}/domains/custom`; a domain connected is removed again at cleanup. */
  async addDomain(name: string, body: Record<string, unknown>): Promise<ApiReply> {
    const r = await this.request('POST', this.url(`/${name}/domains/custom`), { json: body });
    if (r.status === 200 && typeof body.domain === 'string') this.connected.push({ bucket: name, domain: body.domain });
    return r;
  }

  /** A request to the S3 endpoint for `bucket`'s `?query` subresource, signed with the target's key pair (aws4fetch). */
  async s3(bucket: string, query: string, init: { method?: string; body?: string } = {}): Promise<ApiReply> {
    const s3 = this.target.s3!;
    // Imported when used, as the S3 suite's harness does: the suite loads without it.
    const { AwsClient } = await import('aws4fetch');
    const aws = new AwsClient({ ...s3.credentials, service: 's3', region: 'auto' });
    const signed = await aws.sign(`${s3.endpoint}/${bucket}?${query}`, {
      method: init.method ?? 'GET',
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const res = await (s3.fetch ?? fetch)(signed);
    return { status: res.status, headers: res.headers, text: await res.text(), body: undefined };
  }

  /** Deletes an object through the target: the error it was refused with, or undefined. */
  async deleteObject(bucket: string, key: string): Promise<Error | undefined> {
    try {
      await this.target.deleteObject!(bucket, key);
      return undefined;
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  /** Undoes what the test made: locks, domains, public access, then its buckets. */
  async cleanup(): Promise<void> {
    for (const name of this.locked) await this.request('PUT', this.url(`/${name}/lock`), { json: { rules: [] } });
    this.locked.clear();
    for (const d of this.connected.splice(0))
      await this.request('DELETE', this.url(`/${d.bucket}/domains/custom/${d.domain}`));
    for (const name of this.published)
      await this.request('PUT', this.url(`/${name}/domains/managed`), { json: { enabled: false } });
    this.published.clear();
    for (const o of this.objects.splice(0)) await this.target.deleteObject?.(o.bucket, o.key, o.jurisdiction);
    for (const b of this.made.splice(0).reverse()) await this.delete(b.name, b.jurisdiction);
  }
}

/** Options of one R2 control-plane conformance test: what it needs of a target, and the differences it may show. */
interface TestOptions {
  difference?: R2ApiDifferenceId;
  /** Skip (with this reason in the name) when set. */
  skip?: string;
}

/** What a R2 control-plane conformance group defines its tests with. */
export interface GroupContext {
  target: R2ApiTarget;
  /** Registers a test; it is expected to fail on targets that declare its difference. */
  test(name: string, fn: (c: R2ApiClient) => Promise<void>, options?: TestOptions): void;
}

/** A named group of R2 control-plane conformance tests (select groups with the target's `groups`). */
export interface Group {
  name: string;
  /** Registers the group's tests. */
  define(t: GroupContext): void;
}

/** Makes a group of R2 control-plane tests. */
export const defineGroup = (name: string, define: (t: GroupContext) => void): Group => ({ name, define });

/** One API error: the status, then the first error's code (when given) and message (when given). */
export function expectError(r: ApiReply, status: number, code: number | undefined, message?: string): void {
  expect(r.body, r.text).toMatchObject({ success: false, result: null });
  if (code !== undefined) expect(r.body.errors[0].code, r.text).toBe(code);
  if (message !== undefined) expect(r.body.errors[0].message, r.text).toBe(message);
  expect(r.status, r.text).toBe(status);
}

export function runGroups(groups: readonly Group[], target: R2ApiTarget): void {
  runClientGroups(`r2-api conformance on ${target.name ?? new URL(target.baseUrl).host}`, groups, {
    differences: target.differences,
    timeout: target.timeout,
    only: target.groups,
    client: () => new R2ApiClient(target),
    context: (test) => ({ target, test }),
  });
}
