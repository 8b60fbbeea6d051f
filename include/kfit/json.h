/*
 * json.h - writing JSON.  Everything kfit prints as JSON goes through the
 * writer below (commas, nesting, escaping) and kf_json_str, so a reason,
 * a path or a .config value holding quotes, control characters or bytes
 * that are not UTF-8 still gives valid JSON.
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

/* How the writer separates: {"a":1,"b":[2]} or {"a": 1, "b": [2]}. */
typedef enum kf_json_style {
	KF_JSON_COMPACT, /* no spaces */
	KF_JSON_SPACED,  /* a space after every ':' and ',' */
} kf_json_style;

#define KF_JSON_MAX_DEPTH 32

/*
 * A JSON writer appending to a strbuf: it places the commas and checks
 * the nesting (a key only inside an object, every container closed).
 * Values: kf_json_string (NULL gives null), _int, _uint, _bool, _null, or
 * a container; inside an object each value follows kf_json_key, or use
 * the kf_json_k* shorthands.
 */
typedef struct kf_json {
	kf_strbuf *sb;         /* where the text goes */
	kf_json_style style;   /* separators */
	int depth;             /* open containers */
	bool first[KF_JSON_MAX_DEPTH]; /* nothing written yet at that depth */
	bool object[KF_JSON_MAX_DEPTH]; /* that container is an object */
	bool after_key;        /* a key was written, its value is next */
	const char *line;      /* kf_json_line: text before the next element */
	bool bad;              /* misuse seen (too deep, key outside object) */
} kf_json;

void kf_json_init(kf_json *j, kf_strbuf *sb, kf_json_style style);
void kf_json_begin_object(kf_json *j);
void kf_json_end_object(kf_json *j);
void kf_json_begin_array(kf_json *j);
void kf_json_end_array(kf_json *j);
void kf_json_key(kf_json *j, const char *key);
void kf_json_string(kf_json *j, const char *s);
void kf_json_int(kf_json *j, long long v);
void kf_json_uint(kf_json *j, unsigned long long v);
void kf_json_bool(kf_json *j, bool v);
void kf_json_null(kf_json *j);
/* Key and value in one call. */
void kf_json_kstr(kf_json *j, const char *key, const char *s);
void kf_json_kint(kf_json *j, const char *key, long long v);
void kf_json_kuint(kf_json *j, const char *key, unsigned long long v);
void kf_json_kbool(kf_json *j, const char *key, bool v);
void kf_json_kstrs(kf_json *j, const char *key, const char *const *v, size_t n);
/*
 * Layout: put the next element (member or array element) on a new line,
 * "\n" followed by indent, in place of the separator's space.  For
 * output read by people as well as programs (one device a line).
 */
void kf_json_line(kf_json *j, const char *indent);
/* Text that is not a value, as is (a line break before a closing ']'). */
void kf_json_raw(kf_json *j, const char *text);
/* 0 when the text is complete and well nested, -1 otherwise. */
int kf_json_finish(kf_json *j);

#endif
