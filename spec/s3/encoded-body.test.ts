/**
 * XML answers are encoded into one reused buffer (lib/s3/context.ts): safe only because making a
 * Response copies its bytes. Two answers made one after the other must each keep their own body,
 * whichever is read first.
 */
import { describe, expect, it } from 'vitest';
import { xmlResponse } from '../../lib/s3/context.js';

describe('XML answers encoded into a reused buffer', () => {
  it('an answer keeps its bytes when later answers are encoded, larger or smaller, ASCII or not', async () => {
    const texts = ['a'.repeat(50_000), 'é😀<&>', 'b'.repeat(300_000), 'short'];
    const answers = texts.map((t) => xmlResponse('Root', { Text: t }));
    const bodies = await Promise.all(answers.reverse().map((r) => r.text()));
    bodies
      .reverse()
      .forEach((body, i) =>
        expect(body).toContain(
          `<Text>${texts[i]!.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</Text>`,
        ),
      );
  });
});
