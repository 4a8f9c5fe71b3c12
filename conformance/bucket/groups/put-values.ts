import { defineGroup } from '../harness.js';

export const putValues = defineGroup('put values', (t) => {
  void t; // tests to come
});
