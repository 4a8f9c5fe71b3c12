/**
 * Where Cloudflare's published OpenAPI document (fixtures/) and the double differ on purpose, as
 * data: the document's own errors, corrected before validating (`SCHEMA_ERRORS`), and the bodies the
 * document calls invalid that the double accepts as production does (`ACCEPTED_INVALID`). Each
 * says why, with its evidence; schema.test.ts fails on one nothing needs.
 */
import type { Json, SchemaError } from './support.js';

/** Every response schema of the document (each operation's, each status's). */
function* responseSchemas(doc: Json): Generator<[string, Json]> {
  for (const item of Object.values(doc.paths) as Json[]) {
    for (const [m, op] of Object.entries(item) as [string, Json][]) {
      if (m === 'parameters') continue;
      for (const [status, r] of Object.entries(op.responses) as [string, Json][]) {
        const c = r.content?.['application/json'];
        if (c?.schema) yield [status, c];
      }
    }
  }
}

export const SCHEMA_ERRORS: SchemaError[] = [
  {
    id: 'error-allof-success',
    why: "Many 4XX responses are allOf(the operation's success envelope, the failure envelope): `success` must then be both enum [true] and enum [false], so no body satisfies it. The failure envelope alone describes an error body.",
    evidence:
      'The document itself (e.g. GET /zones/{zone_id}/dns_records 4XX: allOf dns-records_dns_response_collection, dns-records_api-response-common-failure); the API answers errors with success: false, as every SDK and wrangler read them.',
    correct(doc) {
      for (const [status, c] of responseSchemas(doc)) {
        const failure = (c.schema.allOf as Json[] | undefined)?.find((s) => /failure(-\d+)?$/.test(s.$ref ?? ''));
        if (status.startsWith('4') && failure) c.schema = failure;
      }
    },
  },
  // ---- DNS ---------------------------------------------------------------------------------------
  {
    id: 'dns-record-untyped-oneof',
    why: "A record body is anyOf(oneOf the 8 record types without `data`, oneOf the 13 with `data`), and no branch requires a field: a body without `type` (a PATCH that changes only `proxied`, `comment` or `ttl`) matches every branch, so `oneOf` refuses it, and every record answer matches several branches too. `anyOf` keeps each branch's own rules.",
    evidence:
      'The document itself (dns-records_dns-record-without-data, dns-records_dns-record-with-data; PATCH is "Update DNS Record" against PUT\'s "Overwrite"); the API edits a record from a partial body: https://developers.cloudflare.com/api/resources/dns/subresources/records/methods/edit/',
    correct(doc) {
      for (const name of ['dns-records_dns-record-without-data', 'dns-records_dns-record-with-data']) {
        const s = doc.components.schemas[name];
        s.anyOf = s.oneOf;
        delete s.oneOf;
      }
    },
  },
  {
    id: 'dns-record-response-data',
    why: 'The record answer requires `data`, but the 8 types without structured data (A, AAAA, CNAME, MX, NS, OPENPGPKEY, PTR, TXT) define no `data` at all: the API answers them without it.',
    evidence:
      "The document's own record schemas (dns-records_ARecord ... TXTRecord carry no `data`); the SDK's ARecord, CNAMERecord, TXTRecord... types have no `data` field (cloudflare-typescript resources/dns/records.ts).",
    correct(doc) {
      const r = doc.components.schemas['dns-records_dns-record-response'];
      r.required = (r.required as string[]).filter((f) => f !== 'data');
    },
  },
  {
    id: 'dns-comment-null',
    why: "The schema types a record's `comment` as a string; the API sends null when there is none.",
    evidence:
      'The SDK types it `string | null`; dns-lexicon\'s recorded answers of the API (tests/fixtures/cassettes/cloudflare) carry `"comment": null`; spec/dns/support.ts corrects the same gap for the DNS suite.',
    correct(doc) {
      doc.components.schemas['dns-records_comment'].nullable = true;
    },
  },
  {
    id: 'zone-owner-tenant-null',
    why: "The schema types a zone's `owner.id`, `tenant.id`, `tenant.name` and `tenant_unit.id` as strings; for a zone of an account that belongs to no tenant the API sends them null (`owner: { id: null, type: 'user', email: null }`, `tenant: { id: null, name: null }`, `tenant_unit: { id: null }`).",
    evidence:
      'dns-lexicon\'s recording of a free zone (tests/fixtures/cassettes/cloudflare, 2025-08), which lib/dns/present.ts follows field by field; captured zone answers in public test fixtures carry the same owner (find_string \'"owner":{"id":null,"type":"user","email":null}\').',
    correct(doc) {
      const zone = doc.components.schemas['zones_zone'].properties;
      for (const o of [zone.owner, zone.tenant, zone.tenant_unit])
        o.properties.id = { type: 'string', maxLength: 32, nullable: true };
      zone.owner.properties.email = { type: 'string', nullable: true };
      zone.tenant.properties.name = { type: 'string', nullable: true };
    },
  },
  {
    id: 'zone-internal-dns-reference',
    why: 'The zone DNS settings answer requires `internal_dns.reference_zone_id`; a zone that references no internal zone has none, and the API answers `internal_dns: {}`.',
    evidence:
      "terraform-provider-cloudflare#5523 (2025-04): a plan of production's answer shows `internal_dns` without `reference_zone_id`; docs/conformance.md, DNS choice 30.",
    correct(doc) {
      doc.components.schemas['dns-settings_internal_dns_response'].allOf.pop();
    },
  },
  // ---- R2 ----------------------------------------------------------------------------------------
  {
    id: 'r2-location-uppercase',
    why: "The document's bucket `location` enum is lowercase (apac, eeur, enam, weur, wnam, oc); the API answers it uppercase (WEUR).",
    evidence:
      'alchemy-run/distilled-cloudflare corrects the same enum in its OpenAPI patch ("API returns uppercase but spec has lowercase") after decoding real responses; the SDK types location as the uppercase-or-lowercase union (docs/sources/r2-api.md#buckets).',
    correct(doc) {
      const e = doc.components.schemas['r2_bucket_location'].enum as string[];
      e.push(...e.map((v) => v.toUpperCase()));
    },
  },
];

/**
 * A body the document calls invalid that the double accepts, on purpose: the operation, which
 * variants (matched against the test's description, `path kind`), why, and the evidence.
 */
export interface AcceptedInvalid {
  id: string;
  operation: string;
  matches: RegExp;
  why: string;
  evidence: string;
}

export const ACCEPTED_INVALID: AcceptedInvalid[] = [
  {
    id: 'zone-create-without-account',
    operation: 'POST /zones',
    matches: /^account missing$/,
    why: "The document requires `account` to create a zone; the API makes the zone in the caller's own account when it is left out, and the double serves one account, so it makes the zone there.",
    evidence:
      "octodns-cloudflare#72 (2023-12) reports the API's answer to a create without an account; the SDK makes `account` optional (ZoneCreateParams); docs/conformance.md, DNS choice 29.",
  },
  {
    id: 'r2-custom-domain-enabled-optional',
    operation: 'POST /accounts/{account_id}/r2/buckets/{bucket_name}/domains/custom',
    matches: /^enabled missing$/,
    why: 'r2_add_custom_domain_request lists `enabled` as required, yet describes it as "If undefined, the domain will be enabled": the double enables a domain added without it.',
    evidence:
      'The document itself (r2_add_custom_domain_request.properties.enabled.description, cloudflare/api-schemas 2026-08-14); the R2 docs attach a custom domain from only its name and zone: https://developers.cloudflare.com/r2/buckets/public-buckets/#custom-domains',
  },
  {
    id: 'r2-lifecycle-conditions-without-prefix',
    operation: 'PUT /accounts/{account_id}/r2/buckets/{bucket_name}/lifecycle',
    matches: /^rules\.0\.conditions\.prefix missing$/,
    why: "r2_lifecycle-rule's `conditions` requires `prefix`, but wrangler sends `conditions: {}` for a rule over the whole bucket and production takes it; the double reads it as the empty prefix.",
    evidence:
      'workers-sdk packages/wrangler/src/r2/lifecycle.ts (`wrangler r2 bucket lifecycle add` without a prefix); lib/r2-api/lifecycle.ts, apiLifecycleRules.',
  },
];
