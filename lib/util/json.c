/*
 * json.c - the JSON writer and string escaping (see include/kfit/json.h).
 * Invalid UTF-8 is replaced, one U+FFFD per maximal invalid subsequence as
 * Unicode recommends, because a JSON reader must reject it.
 */
#include "kfit/json.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf; /* allowed range of the second byte */
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c == 0xe0)
		len = 3, lo = 0xa0;
	else if (c == 0xed)
		len = 3, hi = 0x9f; /* no surrogates */
	else if (c >= 0xe1 && c <= 0xef)
		len = 3;
	else if (c == 0xf0)
		len = 4, lo = 0x90;
	else if (c >= 0xf1 && c <= 0xf3)
		len = 4;
	else if (c == 0xf4)
		len = 4, hi = 0x8f; /* nothing past U+10FFFF */
	else
		return 0;
	if (n < 2 || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (i >= n || p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

/* Bytes of the maximal invalid subsequence at p: the lead byte and the
 * continuation bytes that could still have belonged to it. */
static size_t invalid_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	unsigned lo = 0x80, hi = 0xbf;
	size_t want;
	if (c >= 0xc2 && c <= 0xdf)
		want = 2;
	else if (c >= 0xe0 && c <= 0xef)
		want = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		want = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 1;
	size_t i = 1;
	if (i < n && p[i] >= lo && p[i] <= hi) {
		for (i = 2; i < want && i < n && p[i] >= 0x80 && p[i] <= 0xbf; i++)
			;
	}
	return i;
}

void kf_json_strn(kf_strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	kf_strbuf_grow(sb, n + 2);
	kf_strbuf_addch(sb, '"');
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		switch (c) {
		case '"':
			kf_strbuf_addstr(sb, "\\\"");
			i++;
			continue;
		case '\\':
			kf_strbuf_addstr(sb, "\\\\");
			i++;
			continue;
		case '\n':
			kf_strbuf_addstr(sb, "\\n");
			i++;
			continue;
		case '\t':
			kf_strbuf_addstr(sb, "\\t");
			i++;
			continue;
		case '\r':
			kf_strbuf_addstr(sb, "\\r");
			i++;
			continue;
		case '\b':
			kf_strbuf_addstr(sb, "\\b");
			i++;
			continue;
		case '\f':
			kf_strbuf_addstr(sb, "\\f");
			i++;
			continue;
		}
		if (c < 0x20) {
			kf_strbuf_addf(sb, "\\u%04x", c);
			i++;
			continue;
		}
		size_t len = utf8_seq(p + i, n - i);
		if (len) {
			kf_strbuf_add(sb, p + i, len);
			i += len;
		} else {
			kf_strbuf_addstr(sb, "\xef\xbf\xbd");
			i += invalid_len(p + i, n - i);
		}
	}
	kf_strbuf_addch(sb, '"');
}

void kf_json_str(kf_strbuf *sb, const char *s)
{
	if (!s) {
		kf_strbuf_addstr(sb, "null");
		return;
	}
	kf_json_strn(sb, s, strlen(s));
}

/* ---------------- the writer ---------------- */

void kf_json_init(kf_json *j, kf_strbuf *sb, kf_json_style style)
{
	*j = (kf_json){.sb = sb, .style = style};
	j->first[0] = true;
}

/* The separator before an element: a comma and a space (or the line set
 * by kf_json_line) unless it is the first in its container. */
static void separate(kf_json *j)
{
	if (!j->first[j->depth]) {
		kf_strbuf_addch(j->sb, ',');
		if (!j->line && j->style == KF_JSON_SPACED)
			kf_strbuf_addch(j->sb, ' ');
	}
	if (j->line) {
		kf_strbuf_addch(j->sb, '\n');
		kf_strbuf_addstr(j->sb, j->line);
		j->line = NULL;
	}
	j->first[j->depth] = false;
}

/* Before a value: nothing after its key, else a separator (an object's
 * member needs a key). */
static void before_value(kf_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0 && j->object[j->depth])
		j->bad = true;
	separate(j);
}

static void begin(kf_json *j, char open, bool object)
{
	before_value(j);
	kf_strbuf_addch(j->sb, open);
	if (j->depth + 1 >= KF_JSON_MAX_DEPTH) {
		j->bad = true;
		return;
	}
	j->depth++;
	j->first[j->depth] = true;
	j->object[j->depth] = object;
}

static void end(kf_json *j, char close, bool object)
{
	if (j->depth == 0 || j->object[j->depth] != object || j->after_key)
		j->bad = true;
	else
		j->depth--;
	j->line = NULL;
	kf_strbuf_addch(j->sb, close);
}

void kf_json_begin_object(kf_json *j)
{
	begin(j, '{', true);
}

void kf_json_end_object(kf_json *j)
{
	end(j, '}', true);
}

void kf_json_begin_array(kf_json *j)
{
	begin(j, '[', false);
}

void kf_json_end_array(kf_json *j)
{
	end(j, ']', false);
}

void kf_json_key(kf_json *j, const char *key)
{
	if (j->depth == 0 || !j->object[j->depth] || j->after_key) {
		j->bad = true;
		return;
	}
	separate(j);
	kf_json_str(j->sb, key);
	kf_strbuf_addstr(j->sb, j->style == KF_JSON_SPACED ? ": " : ":");
	j->after_key = true;
}

void kf_json_string(kf_json *j, const char *s)
{
	before_value(j);
	kf_json_str(j->sb, s);
}

void kf_json_int(kf_json *j, long long v)
{
	before_value(j);
	kf_strbuf_addf(j->sb, "%lld", v);
}

void kf_json_uint(kf_json *j, unsigned long long v)
{
	before_value(j);
	kf_strbuf_addf(j->sb, "%llu", v);
}

void kf_json_bool(kf_json *j, bool v)
{
	before_value(j);
	kf_strbuf_addstr(j->sb, v ? "true" : "false");
}

void kf_json_null(kf_json *j)
{
	before_value(j);
	kf_strbuf_addstr(j->sb, "null");
}

void kf_json_kstr(kf_json *j, const char *key, const char *s)
{
	kf_json_key(j, key);
	kf_json_string(j, s);
}

void kf_json_kint(kf_json *j, const char *key, long long v)
{
	kf_json_key(j, key);
	kf_json_int(j, v);
}

void kf_json_kuint(kf_json *j, const char *key, unsigned long long v)
{
	kf_json_key(j, key);
	kf_json_uint(j, v);
}

void kf_json_kbool(kf_json *j, const char *key, bool v)
{
	kf_json_key(j, key);
	kf_json_bool(j, v);
}

void kf_json_kstrs(kf_json *j, const char *key, const char *const *v, size_t n)
{
	kf_json_key(j, key);
	kf_json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		kf_json_string(j, v[i]);
	kf_json_end_array(j);
}

void kf_json_line(kf_json *j, const char *indent)
{
	j->line = indent;
}

void kf_json_raw(kf_json *j, const char *text)
{
	kf_strbuf_addstr(j->sb, text);
}

int kf_json_finish(kf_json *j)
{
	return j->bad || j->depth || j->after_key || j->first[0] ? -1 : 0;
}
