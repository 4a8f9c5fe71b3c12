/**
 * What wrangler knows about a config's fields, as data (wrangler 4.155.0; workers-sdk
 * `packages/workers-utils/src/config/{environment,validation}.ts`). `spec/env/wrangler-parity.test.ts`
 * compares these lists with the installed wrangler, so a wrangler upgrade that adds a field fails
 * there instead of silently turning a known field into an "Unexpected fields" warning.
 *
 * `store_buckets` is the interface documents' neutral name for `r2_buckets`
 * (docs/sources/README.md#the-interface-documents); wrangler does not know it, so it is added next
 * to `r2_buckets` wherever that field appears.
 */

/** The bucket binding fields this package fakes. */
export const BUCKET_FIELDS = ['r2_buckets', 'store_buckets'] as const;
export type BucketField = (typeof BUCKET_FIELDS)[number];

/**
 * The fields of an environment (`[env.<name>]` or the top level) in wrangler's order. Anything else
 * in an `[env.<name>]` section is "Unexpected".
 */
export const ENVIRONMENT_FIELDS: readonly string[] = [
  'account_id',
  'compatibility_date',
  'compatibility_flags',
  'jsx_factory',
  'jsx_fragment',
  'tsconfig',
  'rules',
  'name',
  'main',
  'find_additional_modules',
  'preserve_file_names',
  'base_dir',
  'route',
  'routes',
  'triggers',
  'assets',
  'limits',
  'placement',
  'build',
  'workers_dev',
  'preview_urls',
  'vars',
  'secrets',
  'define',
  'durable_objects',
  'workflows',
  'migrations',
  'exports',
  'kv_namespaces',
  'cloudchamber',
  'containers',
  'send_email',
  'queues',
  'connect',
  'r2_buckets',
  'store_buckets',
  'd1_databases',
  'vectorize',
  'ai_search_namespaces',
  'ai_search',
  'agent_memory',
  'hyperdrive',
  'services',
  'analytics_engine_datasets',
  'dispatch_namespaces',
  'mtls_certificates',
  'tail_consumers',
  'streaming_tail_consumers',
  'unsafe',
  'browser',
  'analytics',
  'ai',
  'images',
  'stream',
  'media',
  'pipelines',
  'k2',
  'secrets_store_secrets',
  'artifacts',
  'unsafe_hello_world',
  'flagship',
  'worker_loaders',
  'ratelimits',
  'vpc_services',
  'vpc_networks',
  'version_metadata',
  'logfwdr',
  'no_bundle',
  'minify',
  'keep_names',
  'first_party_worker',
  'logpush',
  'upload_source_maps',
  'observability',
  'access',
  'cache',
  'compliance_region',
  'python_modules',
  'previews',
];

/**
 * Fields known only at the top level. The first five are the keys wrangler adds to its resolved
 * config object; because it checks the raw config's keys against that object's, a raw top-level key
 * with one of those names is not reported either.
 */
export const TOP_LEVEL_ONLY_FIELDS: readonly string[] = [
  'configPath',
  'userConfigPath',
  'topLevelName',
  'definedEnvironments',
  'targetEnvironment',
  'pages_build_output_dir',
  'send_metrics',
  'dependencies_instrumentation',
  'keep_vars',
  'addresses',
  'dev',
  'site',
  'alias',
  'wasm_modules',
  'text_blobs',
  'data_blobs',
  'env',
  '$schema',
];

/**
 * The non-inheritable fields, in wrangler's order: an `[env.<name>]` section that omits one gets an
 * empty value (never the top level's) and a warning when the top level has it.
 */
export const NON_INHERITABLE_FIELDS: readonly string[] = [
  'vars',
  'secrets',
  'define',
  'durable_objects',
  'workflows',
  'kv_namespaces',
  'cloudchamber',
  'containers',
  'send_email',
  'queues',
  'connect',
  'r2_buckets',
  'store_buckets',
  'd1_databases',
  'vectorize',
  'ai_search_namespaces',
  'ai_search',
  'agent_memory',
  'hyperdrive',
  'services',
  'analytics_engine_datasets',
  'dispatch_namespaces',
  'mtls_certificates',
  'tail_consumers',
  'streaming_tail_consumers',
  'unsafe',
  'browser',
  'analytics',
  'ai',
  'images',
  'stream',
  'media',
  'pipelines',
  'k2',
  'secrets_store_secrets',
  'artifacts',
  'unsafe_hello_world',
  'flagship',
  'worker_loaders',
  'ratelimits',
  'vpc_services',
  'vpc_networks',
  'version_metadata',
];

/**
 * Binding fields, the names wrangler gives their type in "X assigned to ... bindings" messages, and
 * where an entry keeps the name the Worker reads it under, in wrangler's order (the order of the
 * types in those messages). Secrets (`secrets.required`) are added after these as "Secret".
 *
 * The name paths are read from wrangler's config schema (4.155.0, `config-schema.json`): `[].binding` a list
 * of entries named by `binding`; `[].name` a list named by `name` (`send_email`, `ratelimits`);
 * `bindings[].name` / `producers[].binding` such a list under a key; `binding` one object (`ai`;
 * `assets` only when it sets one); `*` a map whose keys are the names (`vars`, the blobs).
 * `spec/env/binding-kinds.test.ts` checks each against the installed wrangler's schema, and that
 * every binding field of the schema is here.
 */
export const BINDING_TYPES: ReadonlyArray<readonly [field: string, kind: string, names: BindingNamePath]> = [
  ['data_blobs', 'Data Blob', '*'],
  ['durable_objects', 'Durable Object', 'bindings[].name'],
  ['kv_namespaces', 'KV Namespace', '[].binding'],
  ['send_email', 'Send Email', '[].name'],
  ['queues', 'Queue', 'producers[].binding'],
  ['d1_databases', 'D1 Database', '[].binding'],
  ['vectorize', 'Vectorize Index', '[].binding'],
  ['ai_search_namespaces', 'AI Search Namespace', '[].binding'],
  ['ai_search', 'AI Search Instance', '[].binding'],
  ['agent_memory', 'Agent Memory', '[].binding'],
  ['hyperdrive', 'Hyperdrive Config', '[].binding'],
  ['r2_buckets', 'R2 Bucket', '[].binding'],
  ['store_buckets', 'Store Bucket', '[].binding'],
  ['logfwdr', 'logfwdr', 'bindings[].name'],
  ['services', 'Worker', '[].binding'],
  ['analytics_engine_datasets', 'Analytics Engine Dataset', '[].binding'],
  ['text_blobs', 'Text Blob', '*'],
  ['browser', 'Browser Run', 'binding'],
  ['analytics', 'Analytics SQL', 'binding'],
  ['ai', 'AI', 'binding'],
  ['images', 'Images', 'binding'],
  ['stream', 'Stream', 'binding'],
  ['media', 'Media', 'binding'],
  ['version_metadata', 'Worker Version Metadata', 'binding'],
  ['unsafe', 'Unsafe Metadata', 'bindings[].name'],
  ['vars', 'Environment Variable', '*'],
  ['wasm_modules', 'Wasm Module', '*'],
  ['dispatch_namespaces', 'Dispatch Namespace', '[].binding'],
  ['mtls_certificates', 'mTLS Certificate', '[].binding'],
  ['workflows', 'Workflow', '[].binding'],
  ['pipelines', 'Pipeline', '[].binding'],
  ['k2', 'K2 Stream', '[].binding'],
  ['secrets_store_secrets', 'Secrets Store Secret', '[].binding'],
  ['artifacts', 'Artifacts', '[].binding'],
  ['ratelimits', 'Rate Limit', '[].name'],
  ['assets', 'Assets', 'binding'],
  ['unsafe_hello_world', 'Hello World', '[].binding'],
  ['flagship', 'Flagship', '[].binding'],
  ['worker_loaders', 'Worker Loader', '[].binding'],
  ['vpc_services', 'VPC Service', '[].binding'],
  ['vpc_networks', 'VPC Network', '[].binding'],
];

/** `secrets.required`: the names of the secrets the Worker needs, each a binding (after BINDING_TYPES). */
export const SECRETS_TYPE = ['secrets', 'Secret', 'required[]'] as const satisfies readonly [
  string,
  string,
  BindingNamePath,
];

/** Where a binding kind's entries keep their names: see BINDING_TYPES. */
export type BindingNamePath =
  '[].binding' | '[].name' | 'bindings[].name' | 'producers[].binding' | 'binding' | '*' | 'required[]';
