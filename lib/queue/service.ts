/**
 * How a Cloudflare service (R2's event notifications) puts a message on a queue: not through a
 * Worker's producer binding but through the queue's own service entry, which each `Queue` registers
 * here when built (queue.ts `#fromService`). Its own small module so the account's events
 * (lib/account/events.ts) reach a queue without loading the Queues double into an account that has
 * none (the DNS entry point's bundle).
 */

/** A message a service writes: JSON text made when first read, and its size in bytes (known now). */
export interface ServiceMessage {
  readonly bytes: number;
  text(): string;
}

/** Each queue's service entry, by queue. */
const serviceSenders = new WeakMap<object, (message: ServiceMessage) => void>();

/** @internal Called once by each Queue's constructor. */
export function registerServiceEntry(queue: object, entry: (message: ServiceMessage) => void): void {
  serviceSenders.set(queue, entry);
}

/** @internal Puts a message on `queue` as a Cloudflare service does (R2's event notifications). */
export function sendAsService(queue: object, message: ServiceMessage): void {
  serviceSenders.get(queue)?.(message);
}
