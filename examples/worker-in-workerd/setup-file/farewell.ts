/** Another dependency of app code, which the test files mock. */
export const farewell = () => 'goodbye';
