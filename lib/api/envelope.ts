/**
 * The v4 API's envelope, written once for every product: `{result, success, errors, messages}`,
 * `result_info` on lists, JSON escaped as Go's encoding/json writes it
 * (docs/sources/dns-api.md#envelope).
 */
import type { ApiError } from './errors.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

// Go's encoding/json escapes these; clients see the same characters after parsing.
const GO_ESCAPED = /[<>&]/g;
const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };
const goEscape = (s: string) => (s.search(GO_ESCAPED) < 0 ? s : s.replace(GO_ESCAPED, (c) => GO_ESCAPES[c]!));

export function json(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(goEscape(JSON.stringify(body)), {
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
  });
}

export const ok = (result: unknown, extra?: Record<string, unknown>) =>
  json(200, { result, success: true, errors: [], messages: [], ...extra });

export function errorResponse(e: ApiError): Response {
  return json(e.status, { result: null, success: false, errors: e.errors, messages: [] }, e.headers);
}

/**
 * A list's `result_info` (V4PagePaginationArray in the SDK). An empty list still counts one page:
 * production answers `total_pages: 1` for an empty records list and for its lists generally
 * (dns-lexicon's recordings against the real API, tests/fixtures/cassettes/cloudflare, 2025-08).
 */
export const paging = (page: number, perPage: number, count: number, total: number) => ({
  result_info: {
    page,
    per_page: perPage,
    count,
    total_count: total,
    total_pages: Math.max(1, Math.ceil(total / perPage)),
  },
});
