import { describe, expect, it } from 'vitest';
import { createHasher, digestHex, hashImplementation, portableHasher, type HashAlgorithm } from '../lib/hash.js';
import { toHex } from '../lib/bytes.js';

const ALGS: HashAlgorithm[] = ['md5', 'sha1', 'sha256', 'sha384', 'sha512'];

describe('hashing', () => {
  it('uses the platform implementation in Node', () => {
    expect(hashImplementation()).toBe('native');
  });

  // Browsers and workerd without nodejs_compat get the portable one: it must agree byte for byte,
  // also when fed in uneven chunks.
  for (const alg of ALGS) {
    it(`the portable ${alg} agrees with the native one, whatever the chunking`, () => {
      const data = new Uint8Array(100_003);
      for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
      const native = toHex(createHasher(alg).update(data).digest());
      const portable = portableHasher(alg);
      for (let at = 0; at < data.length; at += 7_919) portable.update(data.subarray(at, at + 7_919));
      expect(toHex(portable.digest())).toBe(native);
    });
  }

  it('known answers: md5("hello") and the md5 of nothing', () => {
    expect(toHex(portableHasher('md5').update(new TextEncoder().encode('hello')).digest())).toBe(
      '5d41402abc4b2a76b9719d911017c592',
    );
    expect(toHex(createHasher('md5').digest())).toBe('d41d8cd98f00b204e9800998ecf8427e');
  });

  it('a string is hashed as its UTF-8 bytes (lone surrogates as U+FFFD, as TextEncoder writes them)', () => {
    const text = 'GET\n/b/k\u00e9\u{1F600}\ud800\n';
    const bytes = new TextEncoder().encode(text);
    expect(digestHex('sha256', text)).toBe(toHex(portableHasher('sha256').update(bytes).digest()));
    expect(digestHex('sha256', '')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
