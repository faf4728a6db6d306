/**
 * Control characters in free text. NUL cannot be stored in a PostgreSQL text column at all, and the
 * other C0 characters (and DEL) have no business in a name, an id or a search; a text area keeps tab,
 * line feed and carriage return. An unpaired surrogate (half of a UTF-16 pair, `\ud800`) is no character
 * at all: PostgreSQL refuses it in jsonb and UTF-8 cannot hold it, so it is refused with them. With the
 * `u` flag a well-formed pair is one code point, and only a lone half falls in U+D800–U+DFFF.
 * No zod import here: the zod/mini contracts use these too.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const ONE_LINE_PATTERN = /^[^\u0000-\u001f\u007f\ud800-\udfff]*$/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const MULTI_LINE_PATTERN = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ud800-\udfff]*$/u;
export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';
