import { describe, expect, it } from 'vitest';
import { schemaErrors } from './support.js';

// The validator itself must be able to fail, or "schema-clean" means nothing.
describe('the published-schema validator', () => {
  const good = {
    result: {
      id: '023e105f4ecef8ad9ca31a8372d0c353',
      name: 'www.example.com',
      type: 'A',
      content: '198.51.100.4',
      proxiable: true,
      proxied: false,
      ttl: 1,
      settings: {},
      meta: {},
      comment: null,
      tags: [],
      created_on: '2025-10-03T11:22:33.17977Z',
      modified_on: '2025-10-03T11:22:33.17977Z',
    },
    success: true,
    errors: [],
    messages: [],
  };

  it('accepts a well-formed single-record response', () => {
    expect(schemaErrors('dns-records_dns_response_single', good)).toEqual([]);
  });

  it('refuses an A record whose content is not an IPv4 address', () => {
    const bad = structuredClone(good);
    bad.result.content = 'not-an-ip';
    expect(schemaErrors('dns-records_dns_response_single', bad)).not.toEqual([]);
  });

  it('refuses a TTL outside the schema range and a record without proxiable', () => {
    const ttl = structuredClone(good);
    ttl.result.ttl = 5;
    expect(schemaErrors('dns-records_dns_response_single', ttl)).not.toEqual([]);
    const noProxiable = structuredClone(good) as { result: Record<string, unknown> };
    delete noProxiable.result.proxiable;
    expect(schemaErrors('dns-records_dns_response_single', noProxiable)).not.toEqual([]);
  });

  it('refuses an error body with success true or without errors', () => {
    expect(
      schemaErrors('dns-records_api-response-common-failure', {
        result: null,
        success: true,
        errors: [],
        messages: [],
      }),
    ).not.toEqual([]);
    expect(
      schemaErrors('dns-records_api-response-common-failure', { result: null, success: false, messages: [] }),
    ).not.toEqual([]);
    expect(
      schemaErrors('dns-records_api-response-common-failure', {
        result: null,
        success: false,
        errors: [{ code: 81044, message: 'Record does not exist.' }],
        messages: [],
      }),
    ).toEqual([]);
  });
});
