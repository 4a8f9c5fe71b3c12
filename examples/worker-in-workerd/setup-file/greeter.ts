/** App code using greeting.ts. setup.ts imports it (as a setup file that seeds through app code would). */
import { greeting } from './greeting.js';

export const greet = () => greeting();
