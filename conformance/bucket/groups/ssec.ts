import { defineGroup } from '../harness.js';

export const ssec = defineGroup('SSE-C', (t) => {
  void t; // tests to come
});
