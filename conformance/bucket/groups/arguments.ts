import { defineGroup } from '../harness.js';

export const argumentCoercion = defineGroup('argument coercion', (t) => {
  void t; // tests to come
});
