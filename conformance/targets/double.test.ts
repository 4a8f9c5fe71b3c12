import { doubleDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';

// The double in Node.
registerDoubleTargets('double', doubleDifferences);
