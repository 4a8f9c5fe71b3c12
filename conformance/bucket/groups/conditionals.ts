import { defineGroup } from '../harness.js';

export const conditionals = defineGroup('conditionals', (t) => {
  void t; // tests to come
});
