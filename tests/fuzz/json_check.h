/*
 * json_check.h - a strict reader of one JSON string literal (RFC 8259),
 * shared by the JSON unit test and the JSON fuzz target to prove that
 * kf_json_str always writes valid JSON that decodes back to its input.
 * Header-only (static functions): tests include it directly.
 */
#ifndef KFIT_TEST_JSON_CHECK_H
#define KFIT_TEST_JSON_CHECK_H

#include "kfit/util.h"

#include <stdbool.h>
#include <string.h>

/* Is p[0..n) valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF)? */
static bool jc_utf8_valid(const unsigned char *p, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		size_t len;
		unsigned cp;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			len = 2, cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3, cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4, cp = c & 0x07;
		} else {
			return false;
		}
		if (i + len > n)
			return false;
		for (size_t k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

static void jc_put_utf8(kf_strbuf *out, unsigned cp)
{
	if (cp < 0x80) {
		kf_strbuf_addch(out, (int)cp);
	} else if (cp < 0x800) {
		kf_strbuf_addch(out, (int)(0xc0 | cp >> 6));
		kf_strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		kf_strbuf_addch(out, (int)(0xe0 | cp >> 12));
		kf_strbuf_addch(out, (int)(0x80 | (cp >> 6 & 0x3f)));
		kf_strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	} else {
		kf_strbuf_addch(out, (int)(0xf0 | cp >> 18));
		kf_strbuf_addch(out, (int)(0x80 | (cp >> 12 & 0x3f)));
		kf_strbuf_addch(out, (int)(0x80 | (cp >> 6 & 0x3f)));
		kf_strbuf_addch(out, (int)(0x80 | (cp & 0x3f)));
	}
}

static int jc_hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/*
 * Decode the JSON string literal that is exactly s[0..n) into out.
 * Returns NULL when valid, else what is wrong.
 */
static const char *jc_decode(const char *s, size_t n, kf_strbuf *out)
{
	if (!jc_utf8_valid((const unsigned char *)s, n))
		return "not valid UTF-8";
	if (n < 2 || s[0] != '"' || s[n - 1] != '"')
		return "not quoted";
	size_t i = 1;
	while (i < n - 1) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"')
			return "unescaped quote inside";
		if (c < 0x20)
			return "raw control character";
		if (c != '\\') {
			kf_strbuf_addch(out, c);
			i++;
			continue;
		}
		if (i + 1 >= n - 1)
			return "backslash at the end";
		char e = s[i + 1];
		i += 2;
		switch (e) {
		case '"': kf_strbuf_addch(out, '"'); break;
		case '\\': kf_strbuf_addch(out, '\\'); break;
		case '/': kf_strbuf_addch(out, '/'); break;
		case 'b': kf_strbuf_addch(out, '\b'); break;
		case 'f': kf_strbuf_addch(out, '\f'); break;
		case 'n': kf_strbuf_addch(out, '\n'); break;
		case 'r': kf_strbuf_addch(out, '\r'); break;
		case 't': kf_strbuf_addch(out, '\t'); break;
		case 'u': {
			if (i + 4 > n - 1)
				return "short \\u escape";
			int v = jc_hex4(s + i);
			if (v < 0)
				return "bad \\u escape";
			i += 4;
			unsigned cp = (unsigned)v;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (i + 6 > n - 1 || s[i] != '\\' || s[i + 1] != 'u')
					return "lone high surrogate";
				int lo = jc_hex4(s + i + 2);
				if (lo < 0xdc00 || lo > 0xdfff)
					return "bad low surrogate";
				cp = 0x10000 + ((cp - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
				i += 6;
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				return "lone low surrogate";
			}
			jc_put_utf8(out, cp);
			break;
		}
		default:
			return "unknown escape";
		}
	}
	return NULL;
}

#endif
