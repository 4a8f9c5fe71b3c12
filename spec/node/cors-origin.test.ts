/** `r2 serve --cors-origin`: a shortcut that writes each bucket a CORS policy; only origins are accepted. */
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../lib/node/commands.js';

const io: CliIo = { out: () => {}, err: () => {}, stopped: () => Promise.resolve() };

describe('r2 serve --cors-origin', () => {
  it('refuses what is not an origin (a path, a trailing slash, no scheme), since R2 matches Origin exactly', async () => {
    for (const bad of [
      'http://localhost:5173/',
      'https://app.example/upload',
      'app.example',
      'http://Localhost:5173',
    ]) {
      await expect(
        runCli(['r2', 'serve', '--port', '0', '--bucket', 'photos', '--cors-origin', bad], io),
        bad,
      ).rejects.toThrow(/--cors-origin must be an origin/);
    }
  });

  it('accepts origins and * (the server starts and stops)', async () => {
    expect(
      await runCli(
        [
          'r2',
          'serve',
          '--port',
          '0',
          '--bucket',
          'photos',
          '--cors-origin',
          'http://localhost:5173',
          '--cors-origin',
          '*',
        ],
        io,
      ),
    ).toBe(0);
  });
});
