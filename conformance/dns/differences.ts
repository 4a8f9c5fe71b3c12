/**
 * Where a DNS target knowingly differs from today's API: declared once, here, as data.
 *
 * The DNS conformance suite asserts today's API, which is also the double's default. In its
 * 'document' mode the double follows the interface document
 * (docs/sources/dns-api.md#the-interface-document), and where the document and today's API disagree
 * the test names one of these ids; a target that lists it runs the test as an expected failure, so
 * the summary counts it apart and a difference that disappears turns red.
 */
export const dnsDifferences = {
  'document-txt-quotes': {
    shownBy: "the double in its 'document' mode",
    why: 'The document says TXT content saved without quotes gets them added; today the API stores content as sent (docs/sources/dns-api.md#txt).',
  },
  'document-retired-fields': {
    shownBy: "the double in its 'document' mode",
    why: "The document's record carries zone_id, zone_name, locked and meta booleans; the API retired them in 2024–25 (docs/sources/dns-api.md#record-fields).",
  },
  'document-label-rules': {
    shownBy: "the double in its 'document' mode",
    why: 'The document says A/AAAA/CNAME name labels start with a letter; today the API accepts a leading digit (docs/sources/dns-api.md#names).',
  },
  'document-own-network': {
    shownBy: "the double in its 'document' mode",
    why: "The document says an A/AAAA address cannot be one of the service's own; today only proxied records are refused (docs/sources/dns-api.md#proxying).",
  },
  'loadable-export': {
    shownBy: 'the double, in every mode',
    why:
      "Cloudflare's export writes the SOA owner without its trailing dot and the SOA minimum as 3600 (real exports, " +
      'docs/sources/dns-api.md#export): named-checkzone refuses that file ("SOA record not at top of zone"), and it is not the SOA the zone ' +
      'answers with over DNS (minimum 1800, its own serial). The double writes the SOA it answers with, so its export loads in ' +
      'BIND and Knot and answers the same (issue 26; spec/dns/bind-roundtrip.test.ts).',
  },
  'jsdom-form-data': {
    shownBy: "the double under Vitest's jsdom environment",
    why:
      "jsdom's FormData and Blob take the place of the platform's under that environment, and the Request the double reads the " +
      "call with (Node's) does not take them as a multipart body, so an import is refused as having no file.",
  },
} as const satisfies Record<string, { shownBy: string; why: string }>;

/** The id of a declared difference: a target lists the ones it shows in `differences`. */
export type DnsDifferenceId = keyof typeof dnsDifferences;

/** What the double declares in its 'document' mode (every mode also declares 'loadable-export': dns-double-targets.ts). */
export const documentModeDifferences: readonly DnsDifferenceId[] = [
  'document-txt-quotes',
  'document-retired-fields',
  'document-label-rules',
  'document-own-network',
];
