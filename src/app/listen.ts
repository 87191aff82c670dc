/** Moved: src/http/listen.ts. */
export * from '../http/listen';
