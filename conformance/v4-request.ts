/**
 * One request to a `/client/v4` target, as every API suite's harness makes it (conformance/dns,
 * conformance/r2-api): a JSON body when given one, the reply's text kept and parsed when it is JSON.
 */
export interface ApiReply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's JSON, read field by field by each suite's assertions
  body: any;
}

export async function v4Request(
  fetch: (input: string, init?: RequestInit) => Promise<Response>,
  method: string,
  url: string,
  headers: Record<string, string>,
  options: { json?: unknown; body?: BodyInit } = {},
): Promise<ApiReply> {
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
