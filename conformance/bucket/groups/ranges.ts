import { defineGroup } from '../harness.js';

export const ranges = defineGroup('ranges', (t) => {
  void t; // tests to come
});
