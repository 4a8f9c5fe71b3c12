/**
 * Shadowed records: an NS record below the apex delegates its name, so records at or below it
 * are not served by this zone. Computed on demand (only `include_shadow_metadata=true` asks), by
 * walking a record's ancestor names through the name index.
 */
import type { StoredRecord, Zone } from './zone.js';

export interface ShadowMeta {
  shadowed_by?: string[];
  is_glue?: boolean;
  shadowed_records_count?: number;
}

/** The non-apex names from `name` up to (not including) the zone apex, deepest first. */
export function ancestors(name: string, zone: string): string[] {
  const out: string[] = [];
  let n = name;
  while (n !== zone && n.endsWith(`.${zone}`)) {
    out.push(n);
    n = n.slice(n.indexOf('.') + 1);
  }
  return out;
}

const nsAt = (zone: Zone, name: string) => zone.atName(name).filter((r) => r.type === 'NS');

/** The NS records that shadow `r` (at its own name, unless it is part of the delegation, or above). */
function delegations(zone: Zone, r: StoredRecord): StoredRecord[] {
  const names = ancestors(r.name, zone.name);
  const partOfDelegation = r.type === 'NS' || r.type === 'DS';
  return names.flatMap((n) => (n === r.name && partOfDelegation ? [] : nsAt(zone, n)));
}

function isGlue(r: StoredRecord, shadowing: StoredRecord[]): boolean {
  return (r.type === 'A' || r.type === 'AAAA') && shadowing.some((ns) => ns.content === r.name);
}

export function shadowMeta(zone: Zone, r: StoredRecord): ShadowMeta {
  const meta: ShadowMeta = {};
  const shadowing = delegations(zone, r);
  if (shadowing.length) {
    if (isGlue(r, shadowing)) meta.is_glue = true;
    else meta.shadowed_by = shadowing.map((ns) => ns.id);
  }
  if (r.type === 'NS' && r.name !== zone.name) {
    let count = 0;
    for (const other of zone.records.values()) {
      if (other === r || !(other.name === r.name || other.name.endsWith(`.${r.name}`))) continue;
      const by = delegations(zone, other);
      if (by.includes(r) && !isGlue(other, by)) count++;
    }
    meta.shadowed_records_count = count;
  }
  return meta;
}

/** Records at or below `name`, without the NS records that form that delegation. */
export function atOrBelow(zone: Zone, name: string): StoredRecord[] {
  const out: StoredRecord[] = [];
  for (const r of zone.sorted()) {
    if (r.name === name ? r.type !== 'NS' : r.name.endsWith(`.${name}`)) out.push(r);
  }
  return out;
}

/** NS records at `name` or any of its ancestors below the apex. */
export function shadowingNs(zone: Zone, name: string): StoredRecord[] {
  return ancestors(name, zone.name).flatMap((n) => nsAt(zone, n));
}
