/** The DNS records API conformance suite: every group, in the order the summary prints them. */
import { runGroups, type DnsTarget, type Group } from './harness.js';
import { create } from './groups/create.js';
import { validation, conflicts } from './groups/validation.js';
import { lifecycle, listing, batch } from './groups/lifecycle.js';
import { bind } from './groups/bind.js';
import { auth } from './groups/auth.js';

/** Every group of the DNS API suite, in the order it runs them. */
const dnsGroups: readonly Group[] = [create, validation, conflicts, lifecycle, listing, batch, bind, auth];

/** Registers the whole DNS conformance suite (Vitest tests) for one target. */
export function dnsConformance(target: DnsTarget): void {
  runGroups(dnsGroups, target);
}

export { dnsDifferences, documentModeDifferences, type DnsDifferenceId } from './differences.js';
export type { DnsTarget } from './harness.js';
