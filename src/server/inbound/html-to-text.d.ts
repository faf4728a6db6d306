declare module 'html-to-text' {
  /** html-to-text ships no types; the one function used here. */
  export function convert(html: string, options?: Record<string, unknown>): string;
}
