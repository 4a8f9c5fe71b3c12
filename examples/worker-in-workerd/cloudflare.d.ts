// What @cloudflare/vitest-plugin provides inside workerd, as far as these examples use it
// (merged with conformance/targets/cloudflare-workers.d.ts), and Vite's `?raw` imports.
declare module 'cloudflare:workers' {
  export const exports: { default: { fetch(request: Request | string, init?: RequestInit): Promise<Response> } };
}
declare module 'cloudflare:test' {
  export const env: Record<string, unknown>;
  export function createExecutionContext(): {
    waitUntil(promise: Promise<unknown>): void;
    passThroughOnException(): void;
  };
  export function waitOnExecutionContext(ctx: unknown): Promise<void>;
}
declare module '*?raw' {
  const text: string;
  export default text;
}
