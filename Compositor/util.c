/*
 * Strict parsers for the control protocol's numbers (whole token or nothing, range-checked, finite),
 * JSON string escaping, and a write that survives EINTR and short writes.
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

/* Writes s as a JSON string (quotes included), always NUL-terminated; returns the length written.
 * Bytes that are not valid UTF-8 become U+FFFD, so a client's odd title cannot break a line. */
size_t mh_json_string(char *buf, size_t size, const char *s) {
	size_t n = 0;
#define PUT(str) do { size_t l_ = strlen(str); if (n + l_ + 2 > size) goto done; memcpy(buf + n, str, l_); n += l_; } while (0)
	if (size < 3) {
		if (size > 0) buf[0] = '\0';
		return 0;
	}
	buf[n++] = '"';
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		char tmp[8];
		unsigned char c = *p;
		if (c == '"' || c == '\\') {
			snprintf(tmp, sizeof(tmp), "\\%c", c);
			PUT(tmp);
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(tmp, sizeof(tmp), "\\u%04x", c);
			PUT(tmp);
			p++;
		} else if (c < 0x80) {
			tmp[0] = (char)c;
			tmp[1] = '\0';
			PUT(tmp);
			p++;
		} else {
			int len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
			bool ok = len > 0;
			for (int i = 1; ok && i < len; i++) {
				ok = (p[i] & 0xc0) == 0x80;
			}
			if (ok) {
				memcpy(tmp, p, (size_t)len);
				tmp[len] = '\0';
				PUT(tmp);
				p += len;
			} else {
				PUT("\\ufffd");
				p++;
			}
		}
	}
done:
	buf[n++] = '"';
	buf[n] = '\0';
	return n;
#undef PUT
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
