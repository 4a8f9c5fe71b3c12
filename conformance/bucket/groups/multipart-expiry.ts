import { defineGroup } from '../harness.js';

export const multipartExpiry = defineGroup('multipart expiry', (t) => {
  void t; // tests to come
});
