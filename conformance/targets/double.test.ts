import { registerDoubleTargets } from './double-targets.js';

// The double in Node.
registerDoubleTargets('double');
