import { defineGroup } from '../harness.js';

export const storageClass = defineGroup('storage class', (t) => {
  void t; // tests to come
});
