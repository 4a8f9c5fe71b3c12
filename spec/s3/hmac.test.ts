import { describe, expect, it } from 'vitest';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { hmacKey, hmacSha256, hmacSha256Hex, webCryptoHmacSha256 } from '../../lib/s3/hmac.js';

describe('HMAC-SHA256 for SigV4', () => {
  // RFC 4231 test case 2: key "Jefe".
  const key = new TextEncoder().encode('Jefe');
  const data = 'what do ya want for nothing?';
  const expected = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';

  it("the platform path and the WebCrypto path both give RFC 4231's value", async () => {
    expect(bytesToHex(await hmacSha256(key, data))).toBe(expected);
    expect(bytesToHex(await webCryptoHmacSha256(key, data))).toBe(expected);
    expect(bytesToHex(hmac(sha256, key, new TextEncoder().encode(data)))).toBe(expected);
  });

  it('a prepared key (hmacKey) and the hex form give the same value', async () => {
    const prepared = await hmacKey(key);
    expect(bytesToHex(await hmacSha256(prepared, data))).toBe(expected);
    expect(await hmacSha256Hex(prepared, data)).toBe(expected);
    expect(await hmacSha256Hex(key, data)).toBe(expected);
  });
});
