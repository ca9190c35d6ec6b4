#ifndef MULTIHEAD_CEGL_H
#define MULTIHEAD_CEGL_H
/* EGL and OpenGL ES 3 as their headers give them: `import MultiheadGL` re-exports this module, so an app's
 * `draw(in:)` calls glClearColor, glDrawArrays and the rest directly. They are not glvnd's libEGL and
 * libGLESv2 linked: this module defines each function the two headers declare (loader.c), calling through
 * one table filled on first use (dlopen), as cairo is reached; so a process that draws no GL view never
 * loads libEGL, libGLESv2 and libGLdispatch (about a tenth of `multihead screens`' start). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

/* Loads libEGL.so.1 and libGLESv2.so.2 and fills the table, once; returns NULL when they are loaded, else
 * what failed. A GL function called when they cannot be loaded says so and aborts, as the dynamic linker
 * would have at start had they been linked. */
const char *_Nullable mh_gl_load(void);

/* EGL's "no context" is a cast, which Swift cannot import. */
static inline EGLContext _Nullable mh_egl_no_context(void) { return EGL_NO_CONTEXT; }

#endif
