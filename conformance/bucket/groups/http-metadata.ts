import { defineGroup } from '../harness.js';

export const httpMetadata = defineGroup('http metadata', (t) => {
  void t; // tests to come
});
