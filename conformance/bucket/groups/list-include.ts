import { defineGroup } from '../harness.js';

export const listInclude = defineGroup('list include', (t) => {
  void t; // tests to come
});
