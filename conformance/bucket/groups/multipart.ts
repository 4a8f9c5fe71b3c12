import { defineGroup } from '../harness.js';

export const multipart = defineGroup('multipart', (t) => {
  void t; // tests to come
});
