import { doubleInWorkerdDifferences } from '../bucket/index.js';
import { registerDoubleTargets } from './double-targets.js';

// The double running inside workerd: proves lib/ runs on the edge runtime, not only in Node.
registerDoubleTargets('double in workerd', doubleInWorkerdDifferences);
