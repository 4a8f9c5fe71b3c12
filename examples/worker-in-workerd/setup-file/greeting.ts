/** A dependency of app code, which the test files mock. */
export const greeting = () => 'hello';
