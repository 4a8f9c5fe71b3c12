/** The DNS resolution conformance suite: records written through the API, then asked over DNS. */
import { runResolveGroups, type DnsResolveTarget, type ResolveGroup } from './harness.js';
import { records, proxied, chains, negative, wildcards, apex, delegation, any } from './groups.js';

/** Every group of the resolution suite, in the order it runs them. */
const dnsResolveGroups: readonly ResolveGroup[] = [
  records,
  proxied,
  chains,
  negative,
  wildcards,
  apex,
  delegation,
  any,
];

/** Registers the whole resolution suite (Vitest tests) for one target. */
export function dnsResolveConformance(target: DnsResolveTarget): void {
  runResolveGroups(dnsResolveGroups, target);
}

export { dnsResolveDifferences, type DnsResolveDifferenceId } from './differences.js';
export type { DnsResolveTarget } from './harness.js';
