import { defineGroup } from '../harness.js';

export const deletion = defineGroup('delete', (t) => {
  void t; // tests to come
});
