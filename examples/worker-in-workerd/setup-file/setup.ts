/**
 * A setup file that swaps the bucket at import time for every test file of its project, and also
 * imports some app code. Setup files run before each test file, in the same module graph.
 */
import '../swap-at-import.js';
import { greet } from './greeter.js';

void greet;
