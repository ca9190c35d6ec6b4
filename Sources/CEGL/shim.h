#ifndef MULTIHEAD_CEGL_SHIM_H
#define MULTIHEAD_CEGL_SHIM_H
/* EGL and OpenGL ES 3 as their headers give them: `import MultiheadGL` re-exports this module, so an app's
 * `draw(in:)` calls glClearColor, glDrawArrays and the rest directly. libglvnd's libEGL and libGLESv2. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

/* EGL's "no context" is a cast, which Swift cannot import. */
static inline EGLContext _Nullable mh_egl_no_context(void) { return EGL_NO_CONTEXT; }

#endif
