/**
 * The account's zones in the persisted image (`--persist`): each zone as made (id, name, plan,
 * limits, name servers, flattening, created time), its change count (`version`: the SOA serial
 * counts from it, so it is carried on and never goes back), what zone administration set on it
 * (lib/dns/zone-settings.ts: DNSSEC's keys among it, replaced whole, never changed in place), and its
 * records, each one key, with their ids and times.
 *
 * Keys: `zone/<id>` (the zone, rewritten when its version moves or its plan or flattening changes), `zset/<id>` (its settings),
 * `rec/<zone id>/<record id>` (one per record) and `zones` (the ids in the order added, written when
 * the set changes).
 *
 * Records are never changed in place (lib/dns/zone.ts): the part keeps an O(1) snapshot of each
 * zone's record map as last written, and a write diffs the map's snapshot now against it, which
 * skips the tree nodes both share: O(records changed × log n), not O(records). A write that finds
 * nothing changed costs O(zones) compares (the zone, its version, its settings by identity).
 */
import type { DnsApi } from '../../dns-api/dns-api.js';
import { DNS } from '../../dns/backend.js';
import type { DnsLimits, DnsPlan } from '../../dns/types.js';
import type { StoredRecord, Zone } from '../../dns/zone.js';
import { changeZoneSettings, zoneSettings, type ZoneSettings } from '../../dns/zone-settings.js';
import { SnapshotMap, type MapSnapshot } from '../../persistent-map.js';
import type { BackendHost } from '../../support/backend.js';
import { diffSnapshots } from './snapshot-diff.js';
import { valuesUnder, type ImagePart, type ImageStore } from './image-store.js';

/** A zone as persisted (its records are keys of their own). */
interface ZoneRecord {
  name: string;
  plan: DnsPlan;
  limits: DnsLimits;
  nameServers: string[];
  flattenAllCnames: boolean;
  created: number;
  version: number;
}

interface Written {
  zone: Zone;
  version: number;
  /** What zone administration may change on the zone itself (a plan change, flatten_all_cnames), as written. */
  plan: DnsPlan | undefined;
  limits: DnsLimits | undefined;
  flatten: boolean | undefined;
  records: MapSnapshot<StoredRecord>;
  /** The settings written (a value, replaced whole when they change: lib/dns/zone-settings.ts). */
  settings: ZoneSettings | undefined;
}

const EMPTY: MapSnapshot<StoredRecord> = new SnapshotMap<StoredRecord>().snapshot();
const NO_ZONES: ReadonlyMap<string, Zone> = new Map();

const recordKey = (zoneId: string, recordId: string) => `rec/${zoneId}/${recordId}`;

/**
 * The zones a load brought back, each with whether its settings were stored: what the store holds
 * of them is what they hold now, so the part starts from them as written (`ZonesPart`) rather than
 * comparing each record with the store's, a read a record.
 */
export type LoadedZones = readonly { readonly zone: Zone; readonly settings: boolean }[];

export class ZonesPart implements ImagePart {
  readonly #host: BackendHost;
  #written = new Map<string, Written>();
  /** The zones in the order last written. */
  #order: Zone[] = [];

  constructor(host: BackendHost, loaded: LoadedZones = []) {
    this.#host = host;
    for (const { zone, settings } of loaded) {
      this.#written.set(zone.id, {
        zone,
        version: zone.version,
        plan: zone.plan,
        limits: zone.limits,
        flatten: zone.flattenAllCnames,
        records: zone.records.snapshot(),
        settings: settings ? zoneSettings(zone) : undefined,
      });
    }
    this.#order = loaded.map((z) => z.zone);
  }

  write(store: ImageStore): boolean {
    // Read, never made: an account without DNS (r2 serve) has no zones to write.
    const zones = this.#host.made(DNS)?.zones ?? NO_ZONES;
    let wrote = false;
    let i = 0;
    let sameSet = true;
    // Values, not entries: no pair allocated a zone on a write that finds nothing changed.
    for (const zone of zones.values()) {
      if (this.#order[i++] !== zone) sameSet = false;
      const id = zone.id;
      let w = this.#written.get(id);
      if (w === undefined || w.zone !== zone) {
        // New here (or a new zone under a persisted id): its records against what was written under the id.
        w = {
          zone,
          version: -1,
          plan: undefined,
          limits: undefined,
          flatten: undefined,
          records: w?.records ?? EMPTY,
          settings: undefined,
        };
        this.#written.set(id, w);
      }
      const madeChanged = w.plan !== zone.plan || w.limits !== zone.limits || w.flatten !== zone.flattenAllCnames;
      if (w.version !== zone.version || madeChanged) {
        const records = zone.records.snapshot();
        if (w.version !== zone.version)
          diffSnapshots(
            w.records,
            records,
            (rid, r) => store.put(recordKey(id, rid), r),
            (rid) => store.remove(recordKey(id, rid)),
          );
        const record: ZoneRecord = {
          name: zone.name,
          plan: zone.plan,
          limits: zone.limits,
          nameServers: zone.nameServers,
          flattenAllCnames: zone.flattenAllCnames,
          created: zone.created,
          version: zone.version,
        };
        store.put(`zone/${id}`, record);
        w.version = zone.version;
        w.plan = zone.plan;
        w.limits = zone.limits;
        w.flatten = zone.flattenAllCnames;
        w.records = records;
        wrote = true;
      }
      // Whole, as it is: a field zone administration adds is kept without anyone listing it here.
      const settings = zoneSettings(zone);
      if (w.settings !== settings) {
        store.put(`zset/${id}`, settings);
        w.settings = settings;
        wrote = true;
      }
    }
    if (sameSet && i === this.#order.length) return wrote;
    // The set of zones changed: what left goes, with every record key under it.
    for (const id of this.#written.keys()) {
      if (zones.has(id)) continue;
      this.#written.delete(id);
      store.remove(`zone/${id}`);
      store.remove(`zset/${id}`);
      for (const k of store.keys(`rec/${id}/`)) store.remove(k);
    }
    this.#order = [...zones.values()];
    store.put('zones', [...zones.keys()]);
    return true;
  }
}

/**
 * Puts the persisted zones back through the API double's `addZone` (the zone the API would make,
 * with its persisted id), then its created time, version and records, then its settings. A zone id
 * or name the account already has is kept as it is.
 */
export function loadZones(store: ImageStore, host: BackendHost, api: DnsApi): LoadedZones {
  const order = (store.get('zones') as string[] | undefined) ?? [];
  const zones = host.backend(DNS).zones;
  const names = new Set([...zones.values()].map((z) => z.name));
  const loaded: { zone: Zone; settings: boolean }[] = [];
  for (const id of order) {
    const record = store.get(`zone/${id}`) as ZoneRecord | undefined;
    // A zone the server made at start under the id or the name stays (two zones of one name would split its answers).
    if (!record || zones.has(id) || names.has(record.name)) continue;
    const { name, plan, limits, nameServers, flattenAllCnames, created, version } = record;
    api.addZone({ id, name, plan, limits, nameServers, flattenAllCnames });
    const zone = zones.get(id)!;
    zone.load({ created, version, records: valuesUnder(store, `rec/${id}/`) as StoredRecord[] });
    const settings = store.get(`zset/${id}`) as ZoneSettings | undefined;
    // Over the defaults: an image written before a field was kept gets the field's default.
    if (settings)
      changeZoneSettings(zone, (s) => Object.assign(s, settings, { dnssec: { ...s.dnssec, ...settings.dnssec } }));
    loaded.push({ zone, settings: settings !== undefined });
  }
  return loaded;
}
