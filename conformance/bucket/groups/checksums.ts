import { defineGroup } from '../harness.js';

export const checksums = defineGroup('checksums', (t) => {
  void t; // tests to come
});
