/** App code using farewell.ts. setup.ts does not import it. */
import { farewell } from './farewell.js';

export const leave = () => farewell();
