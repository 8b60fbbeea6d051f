/*
 * json.h - writing JSON strings safely.  Everything kfit prints as JSON
 * (profile lists, requirement reports) goes through kf_json_str, so a
 * reason, a path or a .config value holding quotes, control characters
 * or bytes that are not UTF-8 still gives valid JSON.
 */
#ifndef KFIT_JSON_H
#define KFIT_JSON_H

#include "kfit/util.h"

/*
 * Append s as a JSON string literal (with its quotes); NULL gives null.
 * Quote and backslash are escaped, control characters become \n, \t, ...
 * or \u00XX, DEL stays, valid UTF-8 is copied, and every byte that is not
 * part of a valid UTF-8 sequence (overlong forms, surrogates, code points
 * past U+10FFFF, truncated sequences) becomes U+FFFD.
 */
void kf_json_str(kf_strbuf *sb, const char *s);
/* The same for n bytes that may hold NUL (written as \u0000). */
void kf_json_strn(kf_strbuf *sb, const char *s, size_t n);

#endif
