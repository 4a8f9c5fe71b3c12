import { defineGroup } from '../harness.js';

export const body = defineGroup('body', (t) => {
  void t; // tests to come
});
