/**
 * `npm run bench -- boto3`: 100 boto3 `put_object` calls of 1 KiB against `r2 serve`
 * (`startS3Server`, what the command runs), with the interim `100 Continue` sent (the default) and
 * with `expectContinue: 'silent'` (`--no-continue`, Cloudflare's edge). botocore sends `Expect:
 * 100-continue` with every body and waits up to a second for the 100 (issue 27). Needs a python3
 * that imports boto3 (Debian python3-boto3); the case says so and ends when there is none.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startS3Server, type ExpectContinue } from '../lib/node/index.js';
import { findPython } from '../spec/dns/clients/python.js';
import { fmtMs, printTable } from './table.js';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./boto3-puts.py', import.meta.url));
const CALLS = 100;

async function timeCalls(
  bin: string,
  expectContinue: ExpectContinue,
  call: 'put_object' | 'head_object',
): Promise<{ seconds: number; botocore: string }> {
  const server = await startS3Server({ buckets: {}, expectContinue });
  try {
    server.api.addBucket('bench');
    const { stdout } = await run(bin, [script, server.endpoint, 'bench', String(CALLS), call], { timeout: 600_000 });
    return JSON.parse(stdout);
  } finally {
    await server.close();
  }
}

export async function benchBoto3Continue(): Promise<void> {
  const python = findPython('boto3');
  if (!python) {
    console.log('\n## boto3 put_object: skipped, no python3 imports boto3 (Debian package python3-boto3)');
    return;
  }
  const sent = await timeCalls(python.bin, 'send', 'put_object');
  const floor = await timeCalls(python.bin, 'send', 'head_object');
  const silent = await timeCalls(python.bin, 'silent', 'put_object');
  printTable(
    `boto3 ${sent.botocore}: ${CALLS} calls of 1 KiB against r2 serve (startS3Server), one client, in sequence`,
    ['calls', 'total', 'per call'],
    [
      [
        'put_object, interim 100 Continue sent (default)',
        fmtMs(sent.seconds * 1000),
        fmtMs((sent.seconds * 1000) / CALLS),
      ],
      [
        "put_object, silent (--no-continue, as Cloudflare's edge)",
        fmtMs(silent.seconds * 1000),
        fmtMs((silent.seconds * 1000) / CALLS),
      ],
      [
        'head_object (no body, no Expect): boto3 and the server alone',
        fmtMs(floor.seconds * 1000),
        fmtMs((floor.seconds * 1000) / CALLS),
      ],
    ],
    [`python: ${python.bin}`],
  );
}
