import { defineGroup } from '../harness.js';

export const resultShape = defineGroup('result objects', (t) => {
  void t; // tests to come
});
