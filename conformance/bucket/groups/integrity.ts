import { defineGroup } from '../harness.js';

export const integrity = defineGroup('integrity', (t) => {
  void t; // tests to come
});
