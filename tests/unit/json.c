/*
 * json.c - unit tests for lib/util/json.c: kf_json_str escapes quotes,
 * backslashes and control characters, keeps valid UTF-8, replaces invalid
 * UTF-8 with U+FFFD, and what it writes always decodes (by a strict JSON
 * reader) back to the input when the input is valid UTF-8.
 *
 * Prints "ok NAME" / "not ok NAME" (+ "  ..." detail lines) per case.
 */
#include "kfit/json.h"

#include "../fuzz/json_check.h"

#include <stdio.h>
#include <string.h>

/* One case: input bytes and the exact JSON expected. */
struct jcase {
	const char *name; /* test name */
	const char *in;   /* input (n bytes) */
	size_t n;         /* input length */
	const char *want; /* expected output */
};

#define C(name, in, want) {name, in, sizeof(in) - 1, want}

static const struct jcase cases[] = {
	C("plain", "CONFIG_X", "\"CONFIG_X\""),
	C("empty", "", "\"\""),
	C("quote-backslash", "a\"b\\c", "\"a\\\"b\\\\c\""),
	C("controls", "\n\t\r\b\f\x01\x1f", "\"\\n\\t\\r\\b\\f\\u0001\\u001f\""),
	C("del-kept", "\x7f", "\"\x7f\""),
	C("nul", "a\0b", "\"a\\u0000b\""),
	C("utf8-kept", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7\""),
	C("latin1", "caf\xe9", "\"caf\xef\xbf\xbd\""),
	C("overlong-slash", "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""),
	C("surrogate", "\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""),
	C("past-10ffff", "\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""),
	C("truncated-3", "\xe2\x82", "\"\xef\xbf\xbd\""),
	C("truncated-then-ascii", "\xe2\x82x", "\"\xef\xbf\xbdx\""),
	C("lone-continuation", "\x80", "\"\xef\xbf\xbd\""),
	C("f5-ff", "\xf5\xff", "\"\xef\xbf\xbd\xef\xbf\xbd\""),
};

static int wcheck(const char *name, kf_json *j, int want_finish, const char *want)
{
	bool ok = kf_json_finish(j) == want_finish && !strcmp(kf_strbuf_str(j->sb), want);
	printf("%s writer-%s\n", ok ? "ok" : "not ok", name);
	if (!ok)
		printf("  got %s (finish %d)\n  want %s\n", kf_strbuf_str(j->sb),
		       kf_json_finish(j), want);
	kf_strbuf_release(j->sb);
	return !ok;
}

/* The writer: commas, spacing, nesting, line layout, misuse detected. */
static int writer_tests(void)
{
	int failed = 0;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_json j;
	static const char *const two[] = {"a", NULL};

	for (int style = 0; style < 2; style++) {
		kf_json_init(&j, &sb, style ? KF_JSON_SPACED : KF_JSON_COMPACT);
		kf_json_begin_object(&j);
		kf_json_kstr(&j, "s", "q\"");
		kf_json_kint(&j, "i", -3);
		kf_json_kuint(&j, "u", 18446744073709551615ull);
		kf_json_kbool(&j, "b", false);
		kf_json_key(&j, "n");
		kf_json_null(&j);
		kf_json_kstrs(&j, "v", two, 2);
		kf_json_key(&j, "e");
		kf_json_begin_array(&j);
		kf_json_end_array(&j);
		kf_json_key(&j, "o");
		kf_json_begin_object(&j);
		kf_json_end_object(&j);
		kf_json_end_object(&j);
		failed += wcheck(style ? "spaced" : "compact", &j, 0,
				 style ? "{\"s\": \"q\\\"\", \"i\": -3, \"u\": 18446744073709551615, "
					 "\"b\": false, \"n\": null, \"v\": [\"a\", null], \"e\": [], \"o\": {}}"
				       : "{\"s\":\"q\\\"\",\"i\":-3,\"u\":18446744073709551615,"
					 "\"b\":false,\"n\":null,\"v\":[\"a\",null],\"e\":[],\"o\":{}}");
	}

	/* one element a line, a member on a new line, a raw break before ] */
	kf_json_init(&j, &sb, KF_JSON_SPACED);
	kf_json_begin_object(&j);
	kf_json_kint(&j, "a", 1);
	kf_json_line(&j, " ");
	kf_json_key(&j, "l");
	kf_json_begin_array(&j);
	for (int i = 0; i < 2; i++) {
		kf_json_line(&j, "  ");
		kf_json_begin_object(&j);
		kf_json_kint(&j, "x", i);
		kf_json_end_object(&j);
	}
	kf_json_raw(&j, "\n");
	kf_json_end_array(&j);
	kf_json_end_object(&j);
	failed += wcheck("lines", &j, 0, "{\"a\": 1,\n \"l\": [\n  {\"x\": 0},\n  {\"x\": 1}\n]}");

	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	kf_json_begin_object(&j);
	kf_json_string(&j, "no key");
	kf_json_end_object(&j);
	failed += wcheck("member-without-key", &j, -1, "{\"no key\"}");

	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	kf_json_begin_array(&j);
	kf_json_key(&j, "k");
	kf_json_end_array(&j);
	failed += wcheck("key-in-array", &j, -1, "[]");

	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	kf_json_begin_array(&j);
	kf_json_begin_object(&j);
	kf_json_end_array(&j);
	failed += wcheck("mismatched-close", &j, -1, "[{]");

	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	kf_json_begin_array(&j);
	failed += wcheck("unclosed", &j, -1, "[");

	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	failed += wcheck("empty", &j, -1, "");

	kf_json_init(&j, &sb, KF_JSON_COMPACT);
	for (int i = 0; i < KF_JSON_MAX_DEPTH + 2; i++)
		kf_json_begin_array(&j);
	/* past the limit the text is not JSON: finish says so */
	failed += wcheck("too-deep", &j, -1,
			 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[,[,[");
	return failed;
}

int main(void)
{
	int failed = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct jcase *c = &cases[i];
		kf_strbuf sb = KF_STRBUF_INIT, dec = KF_STRBUF_INIT;
		kf_json_strn(&sb, c->in, c->n);
		const char *err = jc_decode(sb.buf, sb.len, &dec);
		bool ok = !strcmp(sb.buf, c->want) && !err;
		if (ok && jc_utf8_valid((const unsigned char *)c->in, c->n))
			ok = dec.len == c->n &&
			     (!c->n || !memcmp(dec.buf, c->in, c->n));
		printf("%s %s\n", ok ? "ok" : "not ok", c->name);
		if (!ok) {
			printf("  got %s (%s)\n  want %s\n", sb.buf,
			       err ? err : "valid", c->want);
			failed++;
		}
		kf_strbuf_release(&sb);
		kf_strbuf_release(&dec);
	}
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_json_str(&sb, NULL);
	bool ok = !strcmp(sb.buf, "null");
	printf("%s null\n", ok ? "ok" : "not ok");
	failed += !ok;
	kf_strbuf_release(&sb);
	failed += writer_tests();
	return failed ? 1 : 0;
}
