/**
 * Certificates for the servers' `tls` option. R2's S3 endpoint and the Cloudflare API are HTTPS
 * only, and some clients (restic through minio-go) behave differently over plain HTTP, so a double
 * must be reachable over TLS with a certificate the client can be told to trust.
 */
import { isIP } from 'node:net';

/** `true`: a certificate made at start, signed by a CA made at start; or one's own PEMs. */
export type TlsOption = boolean | { cert: string; key: string };

export interface TlsMaterial {
  cert: string;
  key: string;
  /** The CA that signed `cert`, when the certificate was made here (what clients are told to trust). */
  ca?: string;
}

/** Valid for a day: enough for a test run or a working session, short enough not to linger. */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The key and certificate to serve with. A made certificate names `localhost`, `127.0.0.1`, `::1`
 * and `host`, and is signed by a CA of its own rather than self-signed: Go's TLS stack (restic,
 * rclone) and curl verify a server certificate against a CA (`--cacert`), not against itself.
 */
export async function tlsMaterial(option: Exclude<TlsOption, false>, host: string): Promise<TlsMaterial> {
  if (option !== true) return { cert: option.cert, key: option.key };
  // Loaded only when TLS is asked for: nothing else pays for the certificate library.
  const { generate } = await import('selfsigned');
  const notBeforeDate = new Date(Date.now() - 60_000); // a minute early, for clocks slightly behind
  const notAfterDate = new Date(notBeforeDate.getTime() + DAY_MS);
  const common = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate, notAfterDate } as const;
  const ca = await generate([{ name: 'commonName', value: 'edge-doubles local CA' }], {
    ...common,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const names = [...new Set(['localhost', '127.0.0.1', '::1', host.replace(/^\[|\]$/g, '')])];
  const server = await generate([{ name: 'commonName', value: host }], {
    ...common,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: names.map((n) => (isIP(n) ? { type: 7, ip: n } : { type: 2, value: n })) },
    ],
  });
  return { cert: server.cert, key: server.private, ca: ca.cert };
}
