/** A Worker's env from the wrangler config (`createEnv`), its `ctx`, and the parts a suite inside workerd needs. */
export {
  createEnv,
  WranglerConfigError,
  type CreateEnvOptions,
  type CreatedEnv,
  type UnfakedBinding,
} from './create-env.js';
export { ConfigParseError, parseWranglerConfig } from './parse.js';
export { useDoubles } from './use-doubles.js';
export { createExecutionContext, waitOnExecutionContext, type TestExecutionContext } from '../execution-context.js';
export type { BucketBindingConfig } from './bucket-bindings.js';
export type { WranglerConfig } from './validate.js';
