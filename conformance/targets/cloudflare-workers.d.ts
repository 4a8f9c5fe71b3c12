// The module @cloudflare/vitest-plugin provides inside workerd; only `env` is used here.
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
}
