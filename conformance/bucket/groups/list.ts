import { defineGroup } from '../harness.js';

export const list = defineGroup('list', (t) => {
  void t; // tests to come
});
