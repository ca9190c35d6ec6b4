/*
 * Strict parsers for the control protocol's numbers (whole token or nothing, range-checked, finite;
 * scales rounded to 120ths), UTF-8 validation, JSON string writing, formatting into new strings, and a
 * write that survives EINTR and short writes.
 *
 * Copyright (c) 2026 the Multihead authors
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
 * associated documentation files (the "Software"), to deal in the Software without restriction,
 * including without limitation the rights to use, copy, modify, merge, publish, distribute,
 * sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all copies or
 * substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
 * NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 * NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
 * OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 * CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compositor.h"

bool mh_parse_int(const char *s, long min, long max, long *out) {
	/* strtol accepts leading spaces and "+"; the protocol does not, so check the first byte. */
	if (s == NULL || (*s != '-' && (*s < '0' || *s > '9')) || strlen(s) > 12) {
		return false;
	}
	char *end = NULL;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
		return false;
	}
	*out = v;
	return true;
}

bool mh_parse_double(const char *s, double min, double max, double *out) {
	/* strtod would take "nan", "inf" and hex floats: accept plain decimals only. */
	if (s == NULL || *s == '\0' || strlen(s) > 32) {
		return false;
	}
	for (const char *p = s; *p; p++) {
		if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == 'e' || *p == 'E')) {
			return false;
		}
	}
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < min || v > max) {
		return false;
	}
	*out = v;
	return true;
}

/* A scale in 120ths (wp_fractional_scale_v1's unit), the nearest to `scale`. */
int mh_scale120(double scale) {
	return (int)lround(scale * MH_SCALE_UNIT);
}

/* A scale as the control protocol takes it: a decimal 1…4, rounded to the nearest 1/120. */
bool mh_parse_scale(const char *s, int *scale120) {
	double v;
	if (!mh_parse_double(s, 1.0, MH_MAX_SCALE, &v)) {
		return false;
	}
	*scale120 = mh_scale120(v);
	return true;
}

/* Transforms by the names wlr-randr and kanshi give them (wl_output's: 90 is counter-clockwise). Only the
 * four rotations are taken (the first four): no monitor mirrors its picture; the flipped ones are named
 * for completeness, never set. */
static const char *const transform_names[] = {"normal", "90", "180", "270", "flipped", "flipped-90",
	"flipped-180", "flipped-270"};

bool mh_parse_transform(const char *s, enum wl_output_transform *transform) {
	for (int i = WL_OUTPUT_TRANSFORM_NORMAL; i <= WL_OUTPUT_TRANSFORM_270; i++) {
		if (strcmp(s, transform_names[i]) == 0) {
			*transform = (enum wl_output_transform)i;
			return true;
		}
	}
	return false;
}

const char *mh_transform_name(enum wl_output_transform transform) {
	return (unsigned)transform <= WL_OUTPUT_TRANSFORM_FLIPPED_270 ? transform_names[transform] : "normal";
}

/* A scale as a JSON number: a whole one as an integer ("2", as before fractional scales), else the
 * shortest decimal that reads back as the double nearest to it ("1.5", "1.25", "1.0083333333333333"). */
void mh_json_scale(FILE *out, int scale120) {
	if (scale120 % MH_SCALE_UNIT == 0) {
		fprintf(out, "%d", scale120 / MH_SCALE_UNIT);
		return;
	}
	double v = (double)scale120 / MH_SCALE_UNIT;
	char text[32];
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(text, sizeof(text), "%.*g", digits, v);
		if (strtod(text, NULL) == v) {
			break;
		}
	}
	fputs(text, out);
}

bool mh_parse_pair(const char *s, char sep, long min, long max, long *a, long *b) {
	char buf[32];
	if (s == NULL || strlen(s) >= sizeof(buf)) {
		return false;
	}
	strcpy(buf, s);
	char *mid = strchr(buf, sep);
	if (mid == NULL) {
		return false;
	}
	*mid = '\0';
	return mh_parse_int(buf, min, max, a) && mh_parse_int(mid + 1, min, max, b);
}

/* WxH or WxH@HZ (HZ a decimal, 1…1000; 60 when absent). */
bool mh_parse_mode(const char *s, int *width, int *height, int *refresh_mhz) {
	char buf[48];
	if (s == NULL || strlen(s) >= sizeof(buf)) {
		return false;
	}
	strcpy(buf, s);
	double hz = 60.0;
	char *at = strchr(buf, '@');
	if (at != NULL) {
		*at = '\0';
		if (!mh_parse_double(at + 1, 1.0, 1000.0, &hz)) {
			return false;
		}
	}
	long w, h;
	if (!mh_parse_pair(buf, 'x', 1, MH_MAX_SIDE, &w, &h) || w * h > MH_MAX_PIXELS) {
		return false;
	}
	*width = (int)w;
	*height = (int)h;
	*refresh_mhz = (int)lround(hz * 1000.0);
	return true;
}

/* One UTF-8 sequence at p, as RFC 3629 allows it (shortest form, no surrogates, at most U+10FFFF): its
 * length, with the code point in *cp; or 0 when p starts no valid sequence, with *bad the length of the
 * bytes one U+FFFD replaces (the lead byte and the continuation bytes valid so far, as Unicode
 * recommends and Python's "replace" does). The string's NUL ends any sequence. */
int mh_utf8_decode(const unsigned char *p, uint32_t *cp, int *bad) {
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	int len;
	uint32_t v;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		v = c & 0x0f;
		lo = c == 0xe0 ? 0xa0 : 0x80; /* E0 80…9F would be overlong */
		hi = c == 0xed ? 0x9f : 0xbf; /* ED A0…BF would be a surrogate */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		v = c & 0x07;
		lo = c == 0xf0 ? 0x90 : 0x80; /* F0 80…8F would be overlong */
		hi = c == 0xf4 ? 0x8f : 0xbf; /* F4 90… would pass U+10FFFF */
	} else {
		*bad = 1; /* a continuation byte, C0/C1 (overlong) or F5…FF (never UTF-8) */
		return 0;
	}
	for (int i = 1; i < len; i++) {
		if (p[i] < lo || p[i] > hi) {
			*bad = i;
			return 0;
		}
		v = (v << 6) | (p[i] & 0x3f);
		lo = 0x80;
		hi = 0xbf;
	}
	*cp = v;
	return len;
}

bool mh_utf8_valid(const char *s) {
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		uint32_t cp;
		int bad;
		int len = mh_utf8_decode(p, &cp, &bad);
		if (len == 0) {
			return false;
		}
		p += len;
	}
	return true;
}

/* An identity string: printable, valid UTF-8, and short enough for wlroots' fixed field. */
bool mh_identity_ok(const char *s, size_t field) {
	if (strlen(s) >= field || !mh_utf8_valid(s)) {
		return false;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			return false;
		}
	}
	return true;
}

/* Writes s as a JSON string, quotes included; each sequence that is not UTF-8 becomes one U+FFFD, so a
 * client's odd title cannot make the answer unreadable to a strict JSON reader. */
void mh_json_string(FILE *out, const char *s) {
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	fputc('"', out);
	while (*p) {
		uint32_t cp;
		int bad;
		int len = mh_utf8_decode(p, &cp, &bad);
		if (len == 0) {
			fputs("\\ufffd", out);
			p += bad;
		} else if (cp == '"' || cp == '\\') {
			fprintf(out, "\\%c", (int)cp);
		} else if (cp < 0x20 || cp == 0x7f) {
			fprintf(out, "\\u%04x", (unsigned)cp);
		} else {
			fwrite(p, 1, (size_t)len, out);
		}
		p += len;
	}
	fputc('"', out);
}

/* printf into a new string (NULL when memory runs out): answers have no length limit of their own. */
char *mh_vformat(const char *format, va_list args) {
	va_list again;
	va_copy(again, args);
	int n = vsnprintf(NULL, 0, format, args);
	char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (text != NULL) {
		vsnprintf(text, (size_t)n + 1, format, again);
	}
	va_end(again);
	return text;
}

char *mh_format(const char *format, ...) {
	va_list args;
	va_start(args, format);
	char *text = mh_vformat(format, args);
	va_end(args);
	return text;
}

bool mh_write_all(int fd, const void *data, size_t len) {
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR) {
				continue;
			}
			return false;
		}
		p += w;
		len -= (size_t)w;
	}
	return true;
}
