/**
 * How a Cloudflare service (R2's event notifications) puts a message on a queue: not through a
 * Worker's producer binding but into the queue's state (queue-state.ts `fromService`), which the
 * account's Queues backend holds (backend.ts). Its own small module, with types only, so the
 * account's listener for a bucket's changes (lib/account/) names what it sends without more.
 */
import type { QueueState } from './queue-state.js';

/** A message a service writes: JSON text made when first read, and its size in bytes (known now). */
export interface ServiceMessage {
  readonly bytes: number;
  text(): string;
}

/** @internal Puts a message on `queue` as a Cloudflare service does (R2's event notifications). */
export function sendAsService(queue: QueueState, message: ServiceMessage): void {
  queue.fromService(message);
}
