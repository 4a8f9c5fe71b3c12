/**
 * Whether a value comes back from JSON exactly as a structured clone would give it: the test that
 * lets the SQLite Store keep a value as JSON text (sqlite-store.ts) rather than in V8's
 * serialization, which keeps what JSON cannot.
 */

/** Nesting past this is kept in V8's serialization, which a cycle needs anyway. */
const MAX_DEPTH = 32;

/**
 * True for strings, booleans, null, finite numbers other than -0, and arrays (dense, plain) and
 * plain objects of those, each object met once (JSON would copy an object met twice, where a
 * structured clone keeps one). False for anything else: undefined (a property JSON would drop),
 * NaN, Infinity, -0, bigints, Dates, Maps, Sets, bytes, class instances, sparse arrays.
 */
export function jsonExact(value: unknown): boolean {
  return exact(value, 0, new Set());
}

function exact(value: unknown, depth: number, seen: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_DEPTH || seen.has(value)) return false;
      seen.add(value);
      if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype) return false;
        for (let i = 0; i < value.length; i++) if (!(i in value) || !exact(value[i], depth + 1, seen)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        if (!exact((value as Record<string, unknown>)[key], depth + 1, seen)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}
