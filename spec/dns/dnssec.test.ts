/**
 * DNSSEC's key material (issue 36): the key tag and DS digest against Cloudflare's own published
 * keys, and the keys WebCrypto makes.
 */
import { describe, expect, it } from 'vitest';
import { dnskeyRdata, dsDigest, keyTag, makeDnssecKeys } from '../../lib/dns/dnssec-keys.js';

/**
 * Cloudflare's key-signing and zone-signing keys, the same in every zone it signs: the KSK as the
 * DS of soleur.ai shows it (jikig-ai/soleur#1835, 2026-04: "2371 13 2 3EDA296C…") and as
 * python-cloudflare's README shows `public_key`; the ZSK's tag, 34505, is on the RRSIGs of
 * cloudflare.net (shuque/compactdenial's README, 2023-11) and ietf.org (recorded 2026-10-04).
 */
const CLOUDFLARE_KSK = 'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==';
const CLOUDFLARE_ZSK = 'oJMRESz5E4gYzS/q6XDrvU1qMPYIjCWzJaOau8XNEZeqCYKD5ar0IRd8KqXXFJkqmVfRvMGPmM1x8fGAa2XhSA==';

describe('key material', () => {
  it("the key tag (RFC 4034 Appendix B) and DS digest (RFC 4509) of Cloudflare's own keys are what production shows", () => {
    const ksk = dnskeyRdata(257, CLOUDFLARE_KSK);
    expect(keyTag(ksk)).toBe(2371);
    expect(keyTag(dnskeyRdata(256, CLOUDFLARE_ZSK))).toBe(34505);
    expect(dsDigest('soleur.ai', ksk)).toBe('3EDA296C18ABFBD581F7DE282C61ED8634B27651F1740EA68C9FF9FAF6D1A66D');
  });

  it('made with WebCrypto: two P-256 keys of 64 bytes, flags 257 and 256, their tags and the DS digest computed from them', async () => {
    const keys = await makeDnssecKeys('example.com');
    for (const [key, flags] of [
      [keys.ksk, 257],
      [keys.zsk, 256],
    ] as const) {
      expect(Buffer.from(key.publicKey, 'base64')).toHaveLength(64);
      expect(key.flags).toBe(flags);
      expect(key.tag).toBe(keyTag(dnskeyRdata(flags, key.publicKey)));
      expect(key.privateKey).toMatchObject({ kty: 'EC', crv: 'P-256' });
    }
    expect(keys.digest).toBe(dsDigest('example.com', dnskeyRdata(257, keys.ksk.publicKey)));
    expect(keys.digest).toMatch(/^[0-9A-F]{64}$/);
    expect((await makeDnssecKeys('example.com')).ksk.publicKey).not.toBe(keys.ksk.publicKey);
  });
});
