/**
 * What `Object.prototype.toString` says of the binding's objects. Since compatibility date
 * 2024-09-26 (flag `set_tostring_tag`) workerd gives every one of its classes a `Symbol.toStringTag`
 * (`[object R2Bucket]`, `[object HeadResult]`, ...); before it they read `[object Object]`.
 *
 * The tag is a data property on each prototype, as in workerd (an accessor there also looked slower
 * for `head` in Node). Prototypes are shared by buckets of every date, so an object made under an
 * older date hides the tag with an own `undefined` instead; only `Reflect.ownKeys` and
 * `Symbol.toStringTag in o` tell it from workerd's, where old-date prototypes have no tag at all. The
 * checksums proxy, which takes no own properties, asks `isUntagged` in its get trap.
 */
const untaggedProxies = new WeakSet<object>();

/** Gives a class workerd's tag, its name. */
export function tagClass(cls: abstract new (...args: never[]) => unknown, name: string): void {
  // As workerd defines it: writable and configurable, not enumerable.
  Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: name, writable: true, configurable: true });
}

/** Marks an object made under a compatibility date before `set_tostring_tag`. */
export function untag(o: object, isProxy = false): void {
  if (isProxy) untaggedProxies.add(o);
  else Object.defineProperty(o, Symbol.toStringTag, { value: undefined, configurable: true });
}

/** For proxies: whether `untag(o, true)` marked it. */
export const isUntagged = (o: object): boolean => untaggedProxies.has(o);
