/**
 * What a swap from a setup file does and costs. It reaches import-time copies in every test file.
 * But app code the setup file imported is loaded before the test file's `vi.mock` calls are
 * registered: it keeps the real modules it imported, so those mocks do not reach it.
 */
import { expect, it, vi } from 'vitest';
import { Bucket } from 'edge-doubles';
import { files } from '../files-at-import.js';
import { greeting } from './greeting.js';
import { greet } from './greeter.js';
import { leave } from './leaver.js';

vi.mock('./greeting.js', () => ({ greeting: () => 'mocked' }));
vi.mock('./farewell.js', () => ({ farewell: () => 'mocked' }));

it("the setup file's swap reaches a copy taken at import time", () => {
  expect(files).toBeInstanceOf(Bucket);
});

it('vi.mock does not reach app code the setup file loaded', () => {
  expect(greet()).toBe('hello');
});

it("the test file's own import of that module is mocked, though", () => {
  expect(greeting()).toBe('mocked');
});

it('vi.mock reaches app code the setup file did not load', () => {
  expect(leave()).toBe('mocked');
});
