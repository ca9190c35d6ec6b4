/*
 * The control channel: one command a line on stdin, one answer a line on stdout ("ok …" or
 * "error CODE reason"), as Compositor/README.md specifies; commands.c runs the commands. Lines are
 * run from an idle callback, after every file descriptor the loop found ready: a command therefore
 * sees every request a client wrote before the command itself was written (a client's commit, then its
 * "drawn" line, then `pixel`).
 * End of input ends the compositor, so a parent that dies takes it along.
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
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "compositor.h"

#define MAX_TOKENS 16

static struct {
	struct mh_server *server;
	int in_fd, out_fd;
	struct wl_event_source *source;
	struct wl_event_source *idle;
	char buf[MH_LINE_MAX + 1]; /* a longest line and its newline */
	size_t len;
	bool discarding; /* inside a line longer than MH_LINE_MAX: dropped up to its newline */
	bool eof, quitting;
} ctl;

void mh_control_quit(void) {
	ctl.quitting = true;
	wl_display_terminate(ctl.server->display);
}

void mh_control_write_line(const char *line) {
	char end = '\n';
	/* A parent that stopped reading cannot be answered any more: end, as on end of input. */
	if (!mh_write_all(ctl.out_fd, line, strlen(line)) || !mh_write_all(ctl.out_fd, &end, 1)) {
		ctl.quitting = true;
		wl_display_terminate(ctl.server->display);
	}
}

void mh_reply(const char *format, ...) {
	va_list args;
	va_start(args, format);
	/* Built to its length: an answer is never cut short. */
	char *line = mh_vformat(format, args);
	va_end(args);
	mh_control_write_line(line != NULL ? line : "error internal out of memory");
	free(line);
}

/* An answer built in memory, so it has no length limit of its own: "ok " and what the caller writes. */
FILE *mh_answer_begin(char **text, size_t *size) {
	*text = NULL;
	FILE *m = open_memstream(text, size);
	if (m != NULL) {
		fputs("ok ", m);
	}
	return m;
}

/* Sends the answer as one line (or an `internal` error when memory ran out), and frees it. */
void mh_answer_end(FILE *m, char *const *text) {
	if (m == NULL || fclose(m) != 0 || *text == NULL) {
		mh_reply_error("internal out of memory");
	} else {
		mh_control_write_line(*text);
	}
	free(*text);
}

/* "CODE reason" from a helper becomes "error CODE reason". */
void mh_reply_error(const char *code_and_reason) {
	mh_reply("error %s", code_and_reason);
}

/* Splits a line into words; "double quotes" group, \" and \\ escape inside them. */
static int tokenize(char *line, char **tokens, const char **error) {
	int n = 0;
	char *r = line, *w = line;
	while (*r) {
		while (*r == ' ' || *r == '\t') {
			r++;
		}
		if (*r == '\0') {
			break;
		}
		if (n == MAX_TOKENS) {
			*error = "usage too many words";
			return -1;
		}
		tokens[n++] = w;
		bool quoted = false;
		while (*r && (quoted || (*r != ' ' && *r != '\t'))) {
			if (*r == '"') {
				quoted = !quoted;
				r++;
			} else if (quoted && *r == '\\' && (r[1] == '"' || r[1] == '\\')) {
				*w++ = r[1];
				r += 2;
			} else {
				*w++ = *r++;
			}
		}
		if (quoted) {
			*error = "usage a quote is not closed";
			return -1;
		}
		/* w never passes r: ending the word in place cannot overwrite unread input. */
		bool last = *r == '\0';
		*w = '\0';
		if (last) {
			break;
		}
		r++;
		w++;
		if (w < r) {
			w = r;
		}
	}
	return n;
}

static void run_line(char *line) {
	char *t[MAX_TOKENS];
	const char *error = NULL;
	int n = tokenize(line, t, &error);
	if (n < 0) {
		mh_reply_error(error);
		return;
	}
	if (n == 0) {
		mh_reply_error("usage an empty line");
		return;
	}
	mh_run_command(ctl.server, t, n);
}

static void run_lines(void *data) {
	(void)data;
	ctl.idle = NULL;
	while (!ctl.quitting) {
		char *newline = memchr(ctl.buf, '\n', ctl.len);
		if (newline == NULL) {
			if (ctl.len == sizeof(ctl.buf)) {
				/* Too long: forget it, and answer once its newline comes. */
				ctl.discarding = true;
				ctl.len = 0;
			}
			if (ctl.eof && ctl.len > 0 && !ctl.discarding) {
				/* A last line without its newline is still a command. */
				newline = ctl.buf + ctl.len;
				ctl.len++;
			} else {
				break;
			}
		}
		size_t line_len = (size_t)(newline - ctl.buf);
		size_t used = line_len + 1;
		*newline = '\0';
		if (ctl.discarding) {
			ctl.discarding = false;
			mh_reply("error line-too-long a line is at most %d bytes", MH_LINE_MAX);
		} else if (memchr(ctl.buf, '\0', line_len) != NULL) {
			/* Refused whole: C strings would end the line at the NUL and run its start alone. */
			mh_reply_error("usage a NUL byte in the line");
		} else {
			if (line_len > 0 && ctl.buf[line_len - 1] == '\r') {
				ctl.buf[--line_len] = '\0';
			}
			/* A CR elsewhere is no line end here, but is one to a terminal or a log reader: refused, so
			 * that what a reader sees as two lines is never run as one command. */
			if (memchr(ctl.buf, '\r', line_len) != NULL) {
				mh_reply_error("usage a carriage return inside the line");
			} else {
				run_line(ctl.buf);
			}
		}
		memmove(ctl.buf, ctl.buf + used, ctl.len - used);
		ctl.len -= used;
	}
	if (ctl.eof && ctl.discarding && !ctl.quitting) {
		ctl.discarding = false;
		mh_reply("error line-too-long a line is at most %d bytes", MH_LINE_MAX);
	}
	if (ctl.eof && !ctl.quitting) {
		ctl.quitting = true;
		wl_display_terminate(ctl.server->display);
	}
}

static int handle_readable(int fd, uint32_t mask, void *data) {
	(void)data;
	(void)mask;
	for (;;) {
		if (ctl.len == sizeof(ctl.buf)) {
			/* Full: run what is there (which frees room) before reading more. */
			break;
		}
		ssize_t r = read(fd, ctl.buf + ctl.len, sizeof(ctl.buf) - ctl.len);
		if (r > 0) {
			ctl.len += (size_t)r;
			continue;
		}
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r == 0 || errno != EAGAIN) {
			ctl.eof = true;
			wl_event_source_remove(ctl.source);
			ctl.source = NULL;
		}
		break;
	}
	if (ctl.idle == NULL) {
		ctl.idle = wl_event_loop_add_idle(ctl.server->loop, run_lines, NULL);
	}
	return 0;
}

bool mh_control_init(struct mh_server *server, int in_fd, int out_fd) {
	ctl.server = server;
	ctl.in_fd = in_fd;
	ctl.out_fd = out_fd;
	int flags = fcntl(in_fd, F_GETFL);
	if (flags < 0 || fcntl(in_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
		return false;
	}
	ctl.source = wl_event_loop_add_fd(server->loop, in_fd, WL_EVENT_READABLE, handle_readable, NULL);
	return ctl.source != NULL;
}

void mh_control_finish(void) {
	if (ctl.source != NULL) {
		wl_event_source_remove(ctl.source);
		ctl.source = NULL;
	}
	if (ctl.idle != NULL) {
		wl_event_source_remove(ctl.idle);
		ctl.idle = NULL;
	}
}
