#ifndef MULTIHEAD_CCAIRO_SHIM_H
#define MULTIHEAD_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <dlfcn.h>
/* wmemset: 32-bit stores with glibc's SIMD, for whole-pixel fills (Glibc's Swift module leaves wchar.h out). */
#include <wchar.h>

/* The cairo functions Multihead calls, reached through one table filled on first use (dlopen): a
 * process that draws nothing (`multihead screens`) never loads cairo and the fifteen libraries behind
 * it (pixman, fontconfig, freetype, png, ...), about 1.5 ms of a 3 ms start. Swift cannot expand the
 * macros; it sees the struct and the loader. New functions go at the end: an incremental build does not
 * see this header change, and files it does not recompile keep the offsets of the fields before them. */
#define MH_CAIRO_FUNCTIONS(X) \
    X(cairo_clip) X(cairo_create) X(cairo_destroy) X(cairo_fill) X(cairo_font_extents) X(cairo_format_stride_for_width) \
    X(cairo_image_surface_create_for_data) X(cairo_image_surface_create_from_png) \
    X(cairo_image_surface_get_data) X(cairo_image_surface_get_height) X(cairo_image_surface_get_stride) \
    X(cairo_image_surface_get_width) X(cairo_move_to) X(cairo_paint) X(cairo_paint_with_alpha) \
    X(cairo_pop_group_to_source) X(cairo_push_group) X(cairo_rectangle) X(cairo_restore) X(cairo_save) X(cairo_scale) \
    X(cairo_select_font_face) X(cairo_set_font_size) X(cairo_set_operator) X(cairo_set_source_rgb) \
    X(cairo_set_source_rgba) X(cairo_show_text) X(cairo_status_to_string) X(cairo_surface_destroy) \
    X(cairo_surface_flush) X(cairo_surface_status) X(cairo_surface_write_to_png) X(cairo_text_extents) \
    X(cairo_translate) X(cairo_image_surface_create) X(cairo_image_surface_get_format) \
    X(cairo_surface_mark_dirty_rectangle) X(cairo_identity_matrix) X(cairo_set_source_surface)

typedef struct mh_cairo_table {
#define MH_CAIRO_FIELD(f) __typeof__(f) *_Nonnull f;
    MH_CAIRO_FUNCTIONS(MH_CAIRO_FIELD)
#undef MH_CAIRO_FIELD
} mh_cairo_table;

/* Loads libcairo and fills the table; returns NULL on success, else dlerror()'s text. */
static inline const char *_Nullable mh_cairo_load(mh_cairo_table *_Nonnull t) {
    void *h = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) return dlerror();
#define MH_CAIRO_LOAD(f) if (!(*(void **)&t->f = dlsym(h, #f))) return dlerror();
    MH_CAIRO_FUNCTIONS(MH_CAIRO_LOAD)
#undef MH_CAIRO_LOAD
    return 0;
}
#endif
