/*
 * Reading pixels back: the scene is rendered into the output's next buffer, read, and the buffer given
 * back uncommitted, so a read shows what the output shows without waiting for its next frame. The
 * layout's picture is in layout coordinates: for each point, the output's pixel at that point times the
 * output's scale (rounded down: every scale-th pixel, 1.5 taking pixels 0, 1, 3, 4, 6…). A rotated
 * output's pixels are read in its logical orientation, as clients see it (a 1920x1080 panel at 90 is a
 * 1080×1920 picture), not in the panel's scan-out order. Files
 * are written beside their final name and renamed, so no reader sees half a file.
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
#include <drm_fourcc.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pixman.h>
#include <wlr/util/box.h>
#include <zlib.h>
#include "compositor.h"

#define MH_MAX_CAPTURE_PIXELS (64L * 1024 * 1024)

/* The output's pixel size in its logical orientation: the mode, its sides swapped at 90 and 270. */
static void output_size(struct mh_output *output, int *width, int *height) {
	wlr_output_transformed_resolution(output->wlr_output, width, height);
}

/* The output's pixels as 0xAARRGGBB words, row after row, in its logical orientation (output_size's
 * size; free() them). */
static const char *render_output(struct mh_server *server, struct mh_output *output, uint32_t **out) {
	struct wlr_output *o = output->wlr_output;
	struct wlr_box box = mh_output_box(output);
	int width, height;
	output_size(output, &width, &height);
	uint32_t *data = malloc((size_t)o->width * (size_t)o->height * 4);
	if (data == NULL) {
		return "internal out of memory";
	}
	if (!wlr_output_attach_render(o, NULL)) {
		free(data);
		return "internal cannot render the output (see the compositor's stderr)";
	}
	/* The whole output, in the scene's (transformed) output coordinates: wlroots 0.15's default, for
	 * no damage given, is the buffer's size unrotated, which would cut a portrait output's lower part. */
	pixman_region32_t whole;
	pixman_region32_init_rect(&whole, 0, 0, (unsigned)width, (unsigned)height);
	wlr_renderer_begin(server->renderer, (uint32_t)o->width, (uint32_t)o->height);
	wlr_renderer_clear(server->renderer, (float[4]){0.0f, 0.0f, 0.0f, 1.0f});
	wlr_scene_render_output(server->scene, o, box.x, box.y, &whole);
	bool ok = wlr_renderer_read_pixels(server->renderer, DRM_FORMAT_ARGB8888, NULL,
		(uint32_t)o->width * 4, (uint32_t)o->width, (uint32_t)o->height, 0, 0, 0, 0, data);
	wlr_renderer_end(server->renderer);
	wlr_output_rollback(o);
	pixman_region32_fini(&whole);
	if (!ok) {
		free(data);
		return "internal the renderer cannot read pixels back";
	}
	if (o->transform == WL_OUTPUT_TRANSFORM_NORMAL) {
		*out = data;
		return NULL;
	}
	/* The buffer is the panel's, its content rotated: each logical pixel is read where wlroots drew it,
	 * by the mapping its scene uses for output coordinates (wlr_box_transform of the inverse). */
	uint32_t *turned = malloc((size_t)width * (size_t)height * 4);
	if (turned == NULL) {
		free(data);
		return "internal out of memory";
	}
	enum wl_output_transform inverse = wlr_output_transform_invert(o->transform);
	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			struct wlr_box at;
			wlr_box_transform(&at, &(struct wlr_box){x, y, 1, 1}, inverse, width, height);
			turned[(size_t)y * (size_t)width + (size_t)x] = data[(size_t)at.y * (size_t)o->width + (size_t)at.x];
		}
	}
	free(data);
	*out = turned;
	return NULL;
}

/* A picture: the output's pixels, or the layout's bounding box in layout coordinates. */
static const char *render(struct mh_server *server, struct mh_output *output, uint32_t **out,
		int *width, int *height) {
	if (output != NULL) {
		output_size(output, width, height);
		return render_output(server, output, out);
	}
	if (wl_list_empty(&server->outputs)) {
		return "no-outputs nothing is plugged";
	}
	struct wlr_box all = {0};
	bool first = true;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_box b = mh_output_box(output);
		int x2 = first ? b.x + b.width : (all.x + all.width > b.x + b.width ? all.x + all.width : b.x + b.width);
		int y2 = first ? b.y + b.height : (all.y + all.height > b.y + b.height ? all.y + all.height : b.y + b.height);
		all.x = first || b.x < all.x ? b.x : all.x;
		all.y = first || b.y < all.y ? b.y : all.y;
		all.width = x2 - all.x;
		all.height = y2 - all.y;
		first = false;
	}
	if ((long)all.width * all.height > MH_MAX_CAPTURE_PIXELS) {
		return "too-large the layout is larger than 64 Mpixels; capture its outputs one by one";
	}
	uint32_t *picture = calloc((size_t)all.width * (size_t)all.height, 4);
	if (picture == NULL) {
		return "internal out of memory";
	}
	for (size_t i = 0; i < (size_t)all.width * (size_t)all.height; i++) {
		picture[i] = 0xff000000; /* what the outputs show where no window is */
	}
	wl_list_for_each(output, &server->outputs, link) {
		uint32_t *pixels;
		const char *error = render_output(server, output, &pixels);
		if (error != NULL) {
			free(picture);
			return error;
		}
		struct wlr_box b = mh_output_box(output);
		long scale120 = mh_output_scale120(output->wlr_output);
		int ow, oh;
		output_size(output, &ow, &oh);
		for (int y = 0; y < b.height && y * scale120 / MH_SCALE_UNIT < oh; y++) {
			long py = y * scale120 / MH_SCALE_UNIT;
			for (int x = 0; x < b.width && x * scale120 / MH_SCALE_UNIT < ow; x++) {
				picture[(size_t)(b.y - all.y + y) * (size_t)all.width + (size_t)(b.x - all.x + x)] =
					pixels[(size_t)py * (size_t)ow + (size_t)(x * scale120 / MH_SCALE_UNIT)];
			}
		}
		free(pixels);
	}
	*width = all.width;
	*height = all.height;
	*out = picture;
	return NULL;
}

const char *mh_capture_pixel(struct mh_server *server, struct mh_output *output, int x, int y,
		uint32_t *argb) {
	if (output == NULL) {
		/* A layout point: the output under it, at its pixel (layout coordinates times its scale, rounded
		 * down). */
		output = mh_output_at(server, x, y);
		if (output == NULL) {
			return "no-such-output no output covers that point";
		}
		struct wlr_box b = mh_output_box(output);
		long scale120 = mh_output_scale120(output->wlr_output);
		x = (int)((x - b.x) * scale120 / MH_SCALE_UNIT);
		y = (int)((y - b.y) * scale120 / MH_SCALE_UNIT);
	}
	int width, height;
	output_size(output, &width, &height);
	if (x < 0 || y < 0 || x >= width || y >= height) {
		return "bad-value the point is outside the output";
	}
	uint32_t *pixels;
	const char *error = render_output(server, output, &pixels);
	if (error != NULL) {
		return error;
	}
	*argb = pixels[(size_t)y * (size_t)width + (size_t)x];
	free(pixels);
	return NULL;
}

static void put32(unsigned char *p, uint32_t v) {
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static bool write_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t len) {
	unsigned char head[8];
	put32(head, len);
	memcpy(head + 4, type, 4);
	uLong crc = crc32(0, (const Bytef *)type, 4);
	if (len > 0) {
		crc = crc32(crc, data, len); /* zlib's crc32 of a NULL buffer is 0, not the running value */
	}
	unsigned char tail[4];
	put32(tail, (uint32_t)crc);
	return fwrite(head, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len)
		&& fwrite(tail, 1, 4, f) == 4;
}

/* An RGB PNG, 8 bits a channel, no filtering, deflated fast. */
static const char *write_png(FILE *f, const uint32_t *pixels, int width, int height) {
	size_t row = (size_t)width * 3 + 1;
	size_t raw_len = row * (size_t)height;
	unsigned char *raw = malloc(raw_len);
	uLongf packed_len = compressBound((uLong)raw_len);
	unsigned char *packed = malloc(packed_len);
	const char *error = NULL;
	if (raw == NULL || packed == NULL) {
		error = "internal out of memory";
		goto out;
	}
	for (int y = 0; y < height; y++) {
		unsigned char *r = raw + row * (size_t)y;
		r[0] = 0;
		for (int x = 0; x < width; x++) {
			uint32_t p = pixels[(size_t)y * (size_t)width + (size_t)x];
			r[1 + x * 3] = (unsigned char)(p >> 16);
			r[2 + x * 3] = (unsigned char)(p >> 8);
			r[3 + x * 3] = (unsigned char)p;
		}
	}
	if (compress2(packed, &packed_len, raw, (uLong)raw_len, 1) != Z_OK) {
		error = "internal cannot compress the picture";
		goto out;
	}
	unsigned char ihdr[13];
	put32(ihdr, (uint32_t)width);
	put32(ihdr + 4, (uint32_t)height);
	ihdr[8] = 8;  /* bits per channel */
	ihdr[9] = 2;  /* RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	if (fwrite(signature, 1, 8, f) != 8 || !write_chunk(f, "IHDR", ihdr, 13)
			|| !write_chunk(f, "IDAT", packed, (uint32_t)packed_len) || !write_chunk(f, "IEND", NULL, 0)) {
		error = "io";
	}
out:
	free(raw);
	free(packed);
	return error;
}

/* A binary PPM (P6): the raw RGB bytes behind a one-line header. */
static const char *write_ppm(FILE *f, const uint32_t *pixels, int width, int height) {
	if (fprintf(f, "P6\n%d %d\n255\n", width, height) < 0) {
		return "io";
	}
	unsigned char rgb[3];
	for (size_t i = 0; i < (size_t)width * (size_t)height; i++) {
		rgb[0] = (unsigned char)(pixels[i] >> 16);
		rgb[1] = (unsigned char)(pixels[i] >> 8);
		rgb[2] = (unsigned char)pixels[i];
		if (fwrite(rgb, 1, 3, f) != 3) {
			return "io";
		}
	}
	return NULL;
}

/* The last `io` error's reason, which names a path of any length: kept until the next, or the end. */
static char *message;

void mh_capture_finish(void) {
	free(message);
	message = NULL;
}

/* "io …" with the path in it; a fixed reason when memory runs out. */
static const char *io_error(const char *what, const char *path, int error) {
	free(message);
	message = mh_format("io cannot %s %s: %s", what, path, strerror(error));
	return message != NULL ? message : "internal out of memory";
}

const char *mh_capture_file(struct mh_server *server, struct mh_output *output, const char *path,
		const char *format, int *width, int *height) {
	bool png = strcmp(format, "png") == 0;
	if (!png && strcmp(format, "ppm") != 0) {
		return "bad-value the format is png or ppm";
	}
	if (path[0] != '/' || strlen(path) > 1024 || !mh_utf8_valid(path)) {
		return "bad-value the path must be absolute UTF-8 (and at most 1024 bytes)";
	}
	uint32_t *pixels;
	const char *error = render(server, output, &pixels, width, height);
	if (error != NULL) {
		return error;
	}
	char *temporary = mh_format("%s.%d.part", path, (int)getpid());
	FILE *f = temporary != NULL ? fopen(temporary, "wbx") : NULL;
	if (f == NULL) {
		error = temporary != NULL ? io_error("create", temporary, errno) : "internal out of memory";
		free(temporary);
		free(pixels);
		return error;
	}
	error = png ? write_png(f, pixels, *width, *height) : write_ppm(f, pixels, *width, *height);
	free(pixels);
	int saved = errno;
	if (fclose(f) != 0 && error == NULL) {
		error = "io";
		saved = errno;
	}
	if (error == NULL && rename(temporary, path) != 0) {
		error = "io";
		saved = errno;
	}
	if (error != NULL) {
		unlink(temporary);
		if (strcmp(error, "io") == 0) {
			error = io_error("write", path, saved);
		}
	}
	free(temporary);
	return error;
}
