/** Exit codes CI can tell apart (Playwright itself exits 1 when a test failed). */
export const EXIT_CONFIG_ERROR = 3;
export const EXIT_TARGET_UNAVAILABLE = 4;
