/**
 * Encoded answers kept while the zones do not change, as authoritative servers get their speed: not
 * re-resolving and re-encoding an answer that has not changed (issue 26, point 7). Decoding,
 * answering and encoding cost ~12 µs a query; a hit costs a map look-up and a copy.
 *
 * The key is the query's bytes after its id with the question's name lower-cased (ASCII, RFC 4343),
 * plus the transport: flags, EDNS size and DO bit are all in it. A hit is sent with the asker's id
 * and question patched in; every other name that echoes the asker's case is a compression pointer
 * into the question (dns-encode.ts), so it follows. Any change to the zones (`state()` differs: a
 * zone added or dropped, or its change count risen) empties the cache, as does passing `maxBytes`.
 *
 * `respond` (dns-message.ts) is its one caller, and looks it up before the answerer is asked: so
 * whatever must see every question (a call log, a fault rule that drops, delays or fails one) sits
 * in `respond`'s options before the look-up (`onExchange` is called for hits too), or makes itself
 * part of `state()` so that adding a rule empties the cache. An answer the answerer gave as SERVFAIL
 * is never kept.
 */
import { lowerAscii } from '../dns/resolve.js';
import type { EncodedAnswer } from './dns-message.js';

export interface DnsAnswerCacheOptions {
  /** The most bytes of answers kept (default 8 MiB): past it the cache starts again empty. */
  maxBytes?: number;
  /**
   * True while every question must reach the answerer (`DnsApi.watchesQuestions()`: its call log
   * records, or fault rules are armed): the cache then answers nothing and keeps nothing.
   */
  bypass?: () => boolean;
}

export class DnsAnswerCache {
  private readonly entries = new Map<string, EncodedAnswer>();
  private bytes = 0;
  private seen: readonly unknown[] = [];
  private readonly maxBytes: number;
  private readonly bypass: (() => boolean) | undefined;
  /** Look-ups answered from the cache, and not (for a bench or a test; never reset). */
  hits = 0;
  misses = 0;

  /**
   * @param state what every answer depends on, compared element by element on each look-up
   *   (`DnsApi.answerState()`: each zone and its change count).
   */
  constructor(
    private readonly state: () => readonly unknown[],
    options: DnsAnswerCacheOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
    this.bypass = options.bypass;
  }

  /** The key of a query whose question (one, read) ends at `questionEnd`. */
  key(query: Buffer, transport: 'udp' | 'tcp', questionEnd: number): string {
    const bytes = query.toString('latin1', 2);
    // Only the name is folded: the type, class and everything after are numbers, kept as they are.
    const name = questionEnd - 4 - 2; // where the name ends in `bytes` (which starts at offset 2)
    return (
      (transport === 'udp' ? 'u' : 't') + bytes.slice(0, 10) + lowerAscii(bytes.slice(10, name)) + bytes.slice(name)
    );
  }

  /** The answer kept for `key`, made out to `query` (its id and question), if the zones are as they were. */
  get(key: string, query: Buffer): EncodedAnswer | undefined {
    if (this.bypass?.()) return undefined;
    this.refresh();
    const kept = this.entries.get(key);
    if (!kept) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    const out = Buffer.from(kept.out);
    query.copy(out, 0, 0, 2);
    return { ...kept, out: patchQuestion(out, query) };
  }

  set(key: string, answer: EncodedAnswer): void {
    if (this.bypass?.()) return;
    this.refresh();
    if (this.bytes + answer.out.length > this.maxBytes) this.clear();
    this.entries.set(key, answer);
    this.bytes += answer.out.length;
  }

  private clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Drops the kept answers if the zones are not as when they were made. */
  private refresh(): void {
    const now = this.state();
    const seen = this.seen;
    if (now.length === seen.length && now.every((v, i) => v === seen[i])) return;
    this.clear();
    this.seen = now;
  }
}

/** Copies the query's question name over the kept answer's: both at 12, of the same length (the keys are equal). */
function patchQuestion(out: Buffer, query: Buffer): Buffer {
  let at = 12;
  while (at < query.length && query[at]! !== 0) at += 1 + query[at]!;
  query.copy(out, 12, 12, at);
  return out;
}
