import { expect } from '../runner.js';
import { runClientGroups } from '../register.js';
import type { DnsDifferenceId } from './differences.js';
import { v4Request, type ApiReply } from '../v4-request.js';

export type { ApiReply };

/** Something the DNS conformance suite can run against: a fetch, a base URL, credentials and a zone. */
export interface DnsTarget {
  /** Shown in test names and the summary table; default the base URL's host. */
  name?: string;
  /** A standard fetch (the double's `api.fetch`, or `globalThis.fetch` for the real API). */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Up to and including `/client/v4`, e.g. `https://api.cloudflare.com/client/v4`. */
  baseUrl: string;
  /** Headers that authenticate: `{authorization: 'Bearer …'}` or `{'x-auth-email', 'x-auth-key'}`. */
  auth: Record<string, string>;
  zoneId: string;
  zoneName: string;
  /** The known differences this target shows (differences.ts). */
  differences?: readonly DnsDifferenceId[];
  /** Run only these groups (by name); default all. */
  groups?: readonly string[];
  /** The zone's plan allows tags (paid plans). Default false: tags get the 0-quota error. */
  tagsAllowed?: boolean;
  /**
   * A zone id the credentials exist for but may not touch, for the scope test. Absent: that test is
   * skipped and says why.
   */
  foreignZoneId?: string;
  /** Per-test timeout (the real API is slower). */
  timeout?: number;
}

// Digits only: a test that filters on letters (name.contains=WW) must not match the subdomain itself.
// Letters here once made one run in ~200 fail, when the label happened to hold "ww".
const randomLabel = () =>
  `edt-${Math.floor(Math.random() * 1e10)
    .toString()
    .padStart(10, '0')}`;

/**
 * One test's view of the target: every name it makes lives under a random subdomain of the zone,
 * and whatever it created there is deleted after the test, so the suite is safe on a real zone.
 */
export class DnsClient {
  readonly sub: string;
  constructor(readonly target: DnsTarget) {
    this.sub = randomLabel();
  }

  /** `label.sub.zone`, or `sub.zone` without a label. */
  name(label?: string): string {
    return label ? `${label}.${this.sub}.${this.target.zoneName}` : `${this.sub}.${this.target.zoneName}`;
  }

  /** A path under the zone's dns_records collection. */
  url(path = '', zoneId = this.target.zoneId): string {
    return `${this.target.baseUrl}/zones/${zoneId}/dns_records${path}`;
  }

  /** A request to the target's `/client/v4`, authenticated as the target says; the reply's status and envelope. */
  async request(
    method: string,
    url: string,
    options: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; auth?: boolean } = {},
  ): Promise<ApiReply> {
    const headers: Record<string, string> = { ...(options.auth === false ? {} : this.target.auth), ...options.headers };
    return v4Request(this.target.fetch, method, url, headers, options);
  }

  /** Creates a record in the test's zone (under its random subdomain, deleted after the test). */
  create(record: Record<string, unknown>): Promise<ApiReply> {
    return this.request('POST', this.url(), { json: record });
  }

  /** Creates and insists on success; returns the record. */
  async made(record: Record<string, unknown>) {
    const r = await this.create(record);
    expect(r.body?.errors, `create ${JSON.stringify(record)}`).toEqual([]);
    expect(r.status).toBe(200);
    return r.body.result;
  }

  /** Reads a record by id. */
  get(id: string) {
    return this.request('GET', this.url(`/${id}`));
  }

  /** Lists within this test's subdomain only (so a real zone's own records never show). */
  list(query = ''): Promise<ApiReply> {
    const scope = `name.endswith=${encodeURIComponent('.' + this.name())}`;
    return this.request('GET', this.url(`?${scope}${query ? '&' + query : ''}`));
  }

  /** Deletes everything under the subdomain (and the subdomain's own name). */
  async cleanup(): Promise<void> {
    for (let guard = 0; guard < 20; guard++) {
      const r = await this.request('GET', this.url(`?name.contains=${encodeURIComponent(this.sub)}&per_page=100`));
      const items: { id: string }[] = r.body?.result ?? [];
      if (items.length === 0) return;
      for (const item of items) await this.request('DELETE', this.url(`/${item.id}`));
    }
  }
}

/** Options of one DNS API conformance test: what it needs of a target, and the differences it may show. */
interface TestOptions {
  difference?: DnsDifferenceId;
  /** Skip (with this reason in the name) when set. */
  skip?: string;
}

/** What a DNS API conformance group defines its tests with. */
export interface GroupContext {
  target: DnsTarget;
  /** Registers a test; it is expected to fail on targets that declare its difference. */
  test(name: string, fn: (c: DnsClient) => Promise<void>, options?: TestOptions): void;
}

/** A named group of DNS API conformance tests (select groups with the target's `groups`). */
export interface Group {
  name: string;
  /** Registers the group's tests. */
  define(t: GroupContext): void;
}

export const defineGroup = (name: string, define: (t: GroupContext) => void): Group => ({ name, define });

/** One API error: status, then the first error's code (when given) and message (when given). */
export function expectError(r: ApiReply, status: number | number[], code: number | undefined, message?: string): void {
  const statuses = Array.isArray(status) ? status : [status];
  expect(r.body, r.text).toMatchObject({ success: false, result: null, messages: [] });
  if (code !== undefined) expect(r.body.errors[0].code, r.text).toBe(code);
  if (message !== undefined) expect(r.body.errors[0].message).toBe(message);
  expect(statuses, r.text).toContain(r.status);
}

export function runGroups(groups: readonly Group[], target: DnsTarget): void {
  runClientGroups(`dns conformance on ${target.name ?? new URL(target.baseUrl).host}`, groups, {
    differences: target.differences,
    timeout: target.timeout,
    only: target.groups,
    client: () => new DnsClient(target),
    context: (test) => ({ target, test }),
  });
}
