import type { Page } from './port.js';

/** Rows to skip before a 1-based page. */
export const pageOffset = (page: Page): number => (page.page - 1) * page.size;
