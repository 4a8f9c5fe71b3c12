import { defineGroup } from '../harness.js';

export const customMetadata = defineGroup('custom metadata', (t) => {
  void t; // tests to come
});
