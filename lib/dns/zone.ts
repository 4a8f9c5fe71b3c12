/**
 * One zone's records and the rules that need the whole zone: identical records, CNAME exclusivity,
 * NS delegation, quota, and all-or-nothing batches. Records are indexed by id, by name and by type,
 * so conflict checks and exact-name/type filters never scan the zone.
 */
import { dnsErrors } from './errors.js';
import { inputOf, recordFields, type RecordFields, type RecordInput, type RuleOptions } from './record-rules.js';
import type { DnsLimits, DnsPlan } from './types.js';
import { SnapshotMap, type MapSnapshot } from '../persistent-map.js';
import { ancestors } from './shadow.js';

/** A stored record. Never mutated in place: an update stores a new object (the undo log keeps the old). */
export interface StoredRecord extends RecordFields {
  id: string;
  created: number;
  modified: number;
  commentModified?: number;
  tagsModified?: number;
}

export interface ModelOptions extends RuleOptions {
  refuseTypeChange: boolean;
  newId(): string;
  now(): number;
}

export interface BatchOps {
  deletes?: { id: string }[];
  patches?: (RecordInput & { id: string })[];
  puts?: (RecordInput & { id: string })[];
  posts?: RecordInput[];
}

export interface BatchResult {
  deletes: StoredRecord[];
  patches: StoredRecord[];
  puts: StoredRecord[];
  posts: StoredRecord[];
}

type Undo = () => void;

/**
 * A zone's records at one moment (see Zone.snapshot): the indexes share structure with the live
 * zone, and the default-order lists are shared until either side changes one.
 */
export interface ZoneSnapshot {
  readonly records: MapSnapshot<StoredRecord>;
  readonly byName: MapSnapshot<readonly StoredRecord[]>;
  readonly byType: MapSnapshot<StoredRecord>;
  readonly names: MapSnapshot<number>;
  readonly sorted: ReadonlyMap<string, StoredRecord[]>;
}

/** byType's keys: type, a separator below every name character, id; one type's records are adjacent. */
const typeKey = (type: string, id: string) => `${type}\u0000${id}`;
const ADDRESS_TYPES = new Set(['A', 'AAAA', 'CNAME']);
/** Characters of content that records of one name and type may hold together (docs, 2026). */
const COMBINED_CONTENT_LIMIT = 8192;

export class Zone {
  readonly id: string;
  readonly name: string;
  /** The plan and the quotas it sets: a plan change (`PATCH /zones/{id}`, zone-admin.ts) replaces both. */
  plan: DnsPlan;
  limits: DnsLimits;
  readonly created: number;
  readonly nameServers: string[];
  /**
   * The zone's "CNAME flattening for all CNAME records" DNS setting (`flatten_all_cnames`), set when
   * the zone is made or through `PATCH /zones/{id}/dns_settings`; resolution reads it (resolve.ts).
   */
  flattenAllCnames: boolean;
  private readonly opts: ModelOptions;
  /**
   * Rises on every change to the records (a create, update, delete or batch that changed something,
   * a clear, a restore) and never falls, not even on a restore: the SOA serial counts from it, so a
   * tool polling the SOA sees every change (docs/sources/dns-wire.md#apex-soa-and-ns).
   */
  private changes = 0;
  // The indexes are SnapshotMaps (O(1) snapshots) and their values are replaced, never mutated.
  readonly records = new SnapshotMap<StoredRecord>();
  private readonly byName = new SnapshotMap<readonly StoredRecord[]>();
  private readonly byType = new SnapshotMap<StoredRecord>();
  /** For each name below the apex: how many records are at or below it (a name exists in DNS while it has any). */
  private readonly names = new SnapshotMap<number>();
  /** Default-order listings by type ('' = all types), built on first use and kept in order after. */
  private sortedCache = new Map<string, StoredRecord[]>();
  /** The listings this zone alone holds; the others may be shared with a snapshot (copied before a change). */
  private sortedOwned = new Set<string>();

  constructor(
    init: {
      id: string;
      name: string;
      plan: DnsPlan;
      limits: DnsLimits;
      nameServers: string[];
      flattenAllCnames?: boolean;
    },
    opts: ModelOptions,
  ) {
    this.id = init.id;
    this.name = init.name;
    this.plan = init.plan;
    this.limits = init.limits;
    this.nameServers = init.nameServers;
    this.flattenAllCnames = init.flattenAllCnames ?? false;
    this.opts = opts;
    this.created = opts.now();
  }

  get size(): number {
    return this.records.size;
  }

  /** How many times the records have changed (see `changes`). */
  get version(): number {
    return this.changes;
  }

  get(id: string): StoredRecord {
    const r = this.records.get(id);
    if (!r) throw dnsErrors.recordNotFound();
    return r;
  }

  atName(name: string): readonly StoredRecord[] {
    return this.byName.get(name) ?? [];
  }

  /**
   * Whether `name` exists in DNS: the apex, a name with records, or an empty non-terminal (a name
   * with none whose descendants have some; RFC 8020). O(1).
   */
  exists(name: string): boolean {
    return name === this.name || this.names.has(name);
  }

  *ofType(type: string): Iterable<StoredRecord> {
    const low = typeKey(type, '');
    const it = this.byType.entriesFrom(low);
    for (let n = it.next(); !n.done && n.value[0].startsWith(low); n = it.next()) yield n.value[1];
  }

  /** O(1) in the number of records (the listings cache is shared, not copied). */
  snapshot(): ZoneSnapshot {
    this.sortedOwned = new Set();
    return {
      records: this.records.snapshot(),
      byName: this.byName.snapshot(),
      byType: this.byType.snapshot(),
      names: this.names.snapshot(),
      sorted: new Map(this.sortedCache),
    };
  }

  /**
   * Brings back a persisted zone (`--persist`, lib/node/persist) into this new one: when it was made,
   * its change count (the SOA serial counts from it: carried on, never back) and its records as
   * stored, ids and times included. Not a change.
   */
  load(image: { created: number; version: number; records: Iterable<StoredRecord> }): void {
    (this as { created: number }).created = image.created;
    this.changes = Math.max(this.changes, image.version);
    for (const r of image.records) this.insert(r);
  }

  /** Removes every record. */
  clear(): void {
    this.changes++;
    this.records.clear();
    this.byName.clear();
    this.byType.clear();
    this.names.clear();
    this.sortedCache = new Map();
    this.sortedOwned = new Set();
  }

  restore(s: ZoneSnapshot): void {
    this.changes++; // forward, not back to the snapshot's count: the serial must never repeat
    this.records.restore(s.records);
    this.byName.restore(s.byName);
    this.byType.restore(s.byType);
    this.names.restore(s.names);
    this.sortedCache = new Map(s.sorted);
    this.sortedOwned = new Set();
  }

  /** Stores a record as given (seeding): the same rules as a create, keeping `id` when there is one. */
  seed(input: RecordInput, id?: string): StoredRecord {
    if (id !== undefined && !/^[0-9a-f]{32}$/.test(id))
      throw new Error(`DnsApi: record id must be 32 lowercase hex characters, got ${JSON.stringify(id)}`);
    if (id !== undefined && this.records.has(id))
      throw new Error(`DnsApi: duplicate record id ${id} in zone ${this.name}`);
    const rec = this.create(input);
    if (id === undefined || id === rec.id) return rec;
    this.remove(rec);
    const kept = { ...rec, id };
    this.insert(kept);
    return kept;
  }

  create(input: RecordInput): StoredRecord {
    return this.transaction((log) => this.createIn(input, this.opts.now(), log));
  }

  update(id: string, input: RecordInput, mode: 'put' | 'patch'): StoredRecord {
    return this.transaction((log) => this.updateIn(id, input, mode, this.opts.now(), log));
  }

  delete(id: string): StoredRecord {
    return this.transaction((log) => this.deleteIn(id, log));
  }

  /** Deletes, then patches, then puts, then posts, each in the order given; the first error undoes all. */
  batch(ops: BatchOps): BatchResult {
    const count =
      (ops.deletes?.length ?? 0) + (ops.patches?.length ?? 0) + (ops.puts?.length ?? 0) + (ops.posts?.length ?? 0);
    if (count > this.limits.batch) throw dnsErrors.batchTooLarge(count, this.limits.batch);
    return this.transaction((log) => {
      const now = this.opts.now();
      return {
        deletes: (ops.deletes ?? []).map((d) => this.deleteIn(d.id, log)),
        patches: (ops.patches ?? []).map((p) => this.updateIn(p.id, p, 'patch', now, log)),
        puts: (ops.puts ?? []).map((p) => this.updateIn(p.id, p, 'put', now, log)),
        posts: (ops.posts ?? []).map((p) => this.createIn(p, now, log)),
      };
    });
  }

  /** Adds what it can, skipping records that fail (the API's import reports them as messages). */
  addAll(inputs: RecordInput[]): { added: StoredRecord[]; skipped: { input: RecordInput; error: unknown }[] } {
    const added: StoredRecord[] = [];
    const skipped: { input: RecordInput; error: unknown }[] = [];
    // DS records last: a zone file may list a delegation's DS before its NS (an export sorts by type),
    // and a DS needs the NS at its name (checkConflicts).
    const isDs = (input: RecordInput) => typeof input.type === 'string' && input.type.toUpperCase() === 'DS';
    for (const input of [...inputs.filter((i) => !isDs(i)), ...inputs.filter(isDs)]) {
      try {
        added.push(this.create(input));
      } catch (error) {
        skipped.push({ input, error });
      }
    }
    return { added, skipped };
  }

  /** Records in the API's default order (type, then name ignoring punctuation), optionally of one type. */
  sorted(type?: string): readonly StoredRecord[] {
    const key = type ?? '';
    // A type no record has (or no type at all, e.g. a list filter's typo) is not worth a cache entry.
    if (type && this.ofType(type)[Symbol.iterator]().next().done) return [];
    let list = this.sortedCache.get(key);
    if (!list) {
      list = [...(type ? this.ofType(type) : this.records.values())].sort(defaultOrder);
      this.sortedCache.set(key, list);
      this.sortedOwned.add(key);
    }
    return list;
  }

  private transaction<T>(fn: (log: Undo[]) => T): T {
    const log: Undo[] = [];
    try {
      const out = fn(log);
      if (log.length) this.changes++;
      return out;
    } catch (e) {
      for (let i = log.length - 1; i >= 0; i--) log[i]!();
      throw e;
    }
  }

  private createIn(input: RecordInput, now: number, log: Undo[]): StoredRecord {
    const fields = recordFields(input, this, this.opts);
    this.checkConflicts(fields, undefined);
    if (this.records.size >= this.limits.records) throw dnsErrors.quota();
    const rec = fields as StoredRecord; // fields is ours alone: extend it rather than copy it
    rec.id = this.opts.newId();
    rec.created = now;
    rec.modified = now;
    if (fields.comment !== null) rec.commentModified = now;
    if (fields.tags.length) rec.tagsModified = now;
    this.insert(rec);
    log.push(() => this.remove(rec));
    return rec;
  }

  private updateIn(id: string, input: RecordInput, mode: 'put' | 'patch', now: number, log: Undo[]): StoredRecord {
    const old = this.get(id);
    const merged: RecordInput = mode === 'patch' ? { ...inputOf(old), ...defined(input) } : input;
    // A PATCH that changes the type must not carry the old type's content or data over.
    if (mode === 'patch' && input.type !== undefined && input.type !== old.type) {
      if (input.content === undefined) delete merged.content;
      if (input.data === undefined) delete merged.data;
      if (input.priority === undefined) delete merged.priority;
    }
    if (merged.type !== old.type && this.opts.refuseTypeChange) throw dnsErrors.typeChange();
    const fields = recordFields(merged, this, this.opts);
    this.checkConflicts(fields, old);
    const rec: StoredRecord = { ...fields, id: old.id, created: old.created, modified: now };
    if (fields.comment !== null)
      rec.commentModified = fields.comment === old.comment ? (old.commentModified ?? now) : now;
    if (fields.tags.length) rec.tagsModified = sameTags(fields.tags, old.tags) ? (old.tagsModified ?? now) : now;
    this.remove(old);
    this.insert(rec);
    log.push(() => {
      this.remove(rec);
      this.insert(old);
    });
    return rec;
  }

  private deleteIn(id: string, log: Undo[]): StoredRecord {
    const old = this.get(id);
    this.remove(old);
    log.push(() => this.insert(old));
    return old;
  }

  private checkConflicts(f: RecordFields, self: StoredRecord | undefined): void {
    const here = this.atName(f.name);
    // A DS belongs at a delegation: below the apex, a name with NS records (errors.ts, dsWithoutNs).
    // At the apex it is taken (DNSControl#3569, 2025: Cloudflare accepts a DS at "@"). A DS already at
    // its name may be re-saved there after its NS went (the NS's removal is not refused: not observed).
    if (
      f.type === 'DS' &&
      f.name !== this.name &&
      !(self?.type === 'DS' && self.name === f.name) &&
      !here.some((r) => r !== self && r.type === 'NS')
    )
      throw dnsErrors.dsWithoutNs();
    if (here.length === 0) return;
    const others = here.filter((r) => r !== self);
    if (others.some((r) => r.key === f.key)) throw dnsErrors.identical();
    if (f.type === 'CNAME' && others.some((r) => ADDRESS_TYPES.has(r.type))) throw dnsErrors.cnameConflict();
    if ((f.type === 'A' || f.type === 'AAAA') && others.some((r) => r.type === 'CNAME')) throw dnsErrors.cnameExists();
    // An NS may be added beside existing A/AAAA/CNAME (docs/conformance.md, DNS choice 10), so such a record, already
    // at that name, may still be re-saved there (a PUT of what was read must not start failing).
    const alreadyHere = self !== undefined && self.name === f.name && ADDRESS_TYPES.has(self.type);
    if (ADDRESS_TYPES.has(f.type) && f.name !== this.name && !alreadyHere && others.some((r) => r.type === 'NS'))
      throw dnsErrors.nsConflict();
    let combined = f.content.length;
    for (const r of others) if (r.type === f.type) combined += r.content.length;
    if (combined > COMBINED_CONTENT_LIMIT) throw dnsErrors.combinedTooLong();
  }

  /** A cached listing this zone may change in place (a copy when it is shared with a snapshot). */
  private ownSorted(key: string): StoredRecord[] | undefined {
    let list = this.sortedCache.get(key);
    if (list && !this.sortedOwned.has(key)) {
      list = list.slice();
      this.sortedCache.set(key, list);
      this.sortedOwned.add(key);
    }
    return list;
  }

  private insert(r: StoredRecord): void {
    this.records.set(r.id, r);
    const named = this.byName.get(r.name);
    this.byName.set(r.name, named ? [...named, r] : [r]);
    this.byType.set(typeKey(r.type, r.id), r);
    for (const n of ancestors(r.name, this.name)) this.names.set(n, (this.names.get(n) ?? 0) + 1);
    for (const key of ['', r.type]) {
      const list = this.ownSorted(key);
      if (list) list.splice(lowerBound(list, r), 0, r);
    }
  }

  private remove(r: StoredRecord): void {
    this.records.delete(r.id);
    const named = this.byName.get(r.name)!.filter((x) => x !== r);
    if (named.length === 0) this.byName.delete(r.name);
    else this.byName.set(r.name, named);
    this.byType.delete(typeKey(r.type, r.id));
    for (const n of ancestors(r.name, this.name)) {
      const left = this.names.get(n)! - 1;
      if (left === 0) this.names.delete(n);
      else this.names.set(n, left);
    }
    for (const key of ['', r.type]) {
      const list = this.ownSorted(key);
      if (!list) continue;
      const at = lowerBound(list, r);
      if (list[at] === r) list.splice(at, 1);
      else this.sortedCache.delete(key); // never expected; rebuild rather than serve a stale order
    }
  }
}

const defined = (input: RecordInput): RecordInput =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && k !== 'id')) as RecordInput;

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/** Names compare with punctuation ignored, as the API's collation does (`_dmarc.x` sorts among `d…`). */
const nameKey = (name: string): string => name.replace(/[^a-z0-9]/g, '');

const sortNames = new WeakMap<StoredRecord, string>();
/** nameKey of a record's name, computed once per stored record (sorting calls it n log n times). */
export function sortName(r: StoredRecord): string {
  let k = sortNames.get(r);
  if (k === undefined) sortNames.set(r, (k = nameKey(r.name)));
  return k;
}

export function defaultOrder(a: StoredRecord, b: StoredRecord): number {
  return cmp(a.type, b.type) || cmp(sortName(a), sortName(b)) || cmp(a.name, b.name) || cmp(a.id, b.id);
}

/** First index whose record sorts at or after `r` (ids make the order total). */
function lowerBound(list: readonly StoredRecord[], r: StoredRecord): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (defaultOrder(list[mid]!, r) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const cmp = <T extends string | number | boolean>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);
