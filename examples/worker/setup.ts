// Named in vitest.config.ts (the `examples` project's setupFiles), as a user's project names its own.
// README: setup-file
import 'edge-doubles/vitest'; // registers toHaveObject, toHaveReceived and toHaveDnsRecord on expect, and types them
// README: end
