/*
 * json.c - fuzz target for lib/util/json.c: whatever bytes go in, kf_json_strn
 * writes one valid JSON string literal (checked by a strict reader), and
 * when the input is valid UTF-8 it decodes back to exactly the input.
 * Any violation aborts.
 */
#include "fuzz_common.h"
#include "json_check.h"
#include "kfit/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kf_strbuf sb = KF_STRBUF_INIT, dec = KF_STRBUF_INIT;
	kf_json_strn(&sb, (const char *)data, size);
	const char *err = jc_decode(sb.buf, sb.len, &dec);
	if (err) {
		fprintf(stderr, "json: invalid output: %s\n", err);
		abort();
	}
	if (jc_utf8_valid(data, size) &&
	    (dec.len != size || (size && memcmp(dec.buf, data, size)))) {
		fprintf(stderr, "json: does not decode back to the input\n");
		abort();
	}
	kf_strbuf_release(&sb);
	kf_strbuf_release(&dec);
	return 0;
}
