/* The GL rows' baseline: what a C program does to draw with EGL on the same server, without Multihead.
 * `gl W H FRAMES WINDOWS`: one warm-up window, then WINDOWS override-redirect windows of W×H, each with its
 * own OpenGL ES 3 context and EGL window surface; every 60 Hz frame (clock_nanosleep to absolute targets,
 * missed ones skipped) each window is cleared, one triangle drawn and the surface swapped. Prints
 * "median_us=<CPU per frame> pacing_us=<median |wake-up − frame time|> rss_mb=<resident memory per window>". */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double now_us(void);
double cpu_us(void);
long rss_kb(void);
double median(double *v, int n);

typedef struct { Window window; EGLSurface surface; EGLContext context; GLuint program, buffer; } gl_window;

static const char *vertex = "#version 300 es\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }";
static const char *fragment = "#version 300 es\nprecision mediump float;\nout vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }";

static GLuint shader(GLenum type, const char *source) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &source, NULL);
    glCompileShader(s);
    return s;
}

static int open_gl_window(Display *d, EGLDisplay ed, EGLConfig config, gl_window *g, int x, int y, int w, int h) {
    XSetWindowAttributes a = {0};
    a.override_redirect = 1;
    g->window = XCreateWindow(d, DefaultRootWindow(d), x, y, w, h, 0, CopyFromParent, InputOutput, CopyFromParent,
                              CWOverrideRedirect, &a);
    XMapWindow(d, g->window);
    g->surface = eglCreatePlatformWindowSurface(ed, config, &g->window, NULL);
    EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    g->context = eglCreateContext(ed, config, EGL_NO_CONTEXT, attributes);
    if (!g->surface || !g->context || !eglMakeCurrent(ed, g->surface, g->surface, g->context)) return 0;
    GLuint vs = shader(GL_VERTEX_SHADER, vertex), fs = shader(GL_FRAGMENT_SHADER, fragment);
    g->program = glCreateProgram();
    glAttachShader(g->program, vs);
    glAttachShader(g->program, fs);
    glLinkProgram(g->program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    float corners[] = {-0.5f, -0.5f, 0.5f, -0.5f, 0.0f, 0.5f};
    glGenBuffers(1, &g->buffer);
    glBindBuffer(GL_ARRAY_BUFFER, g->buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
    return 1;
}

static void draw_gl_window(EGLDisplay ed, gl_window *g, int w, int h) {
    eglMakeCurrent(ed, g->surface, g->surface, g->context);
    glViewport(0, 0, w, h);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(g->program);
    glBindBuffer(GL_ARRAY_BUFFER, g->buffer);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    eglSwapBuffers(ed, g->surface);
}

int gl_bench(int w, int h, int n, int count) {
    Display *d = XOpenDisplay(NULL);
    if (!d) return 69;
    EGLDisplay ed = eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, d, NULL);
    EGLint major, minor, found = 0;
    if (!ed || !eglInitialize(ed, &major, &minor) || !eglBindAPI(EGL_OPENGL_ES_API)) return 69;
    EGLint attributes[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                           EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
    EGLConfig config;
    if (!eglChooseConfig(ed, attributes, &config, 1, &found) || !found) return 69;
    gl_window warm, *g = calloc(count, sizeof *g);
    /* What the first window sets up once (the driver, its shader compiler) is no window's memory. */
    if (!open_gl_window(d, ed, config, &warm, 0, 0, 64, 64)) return 69;
    draw_gl_window(ed, &warm, 64, 64);
    XSync(d, False);
    long before = rss_kb();
    for (int i = 0; i < count; i++) {
        if (!open_gl_window(d, ed, config, &g[i], (i % 4) * w / 4, (i / 4) * h / 4, w, h)) return 69;
        draw_gl_window(ed, &g[i], w, h);
    }
    XSync(d, False);
    double rss = (double)(rss_kb() - before) / count / 1024.0;
    double *errors = calloc(n, sizeof *errors);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    double start = cpu_us();
    for (int f = 0; f < n; f++) {
        next.tv_nsec += 16666667;
        if (next.tv_nsec >= 1000000000) { next.tv_nsec -= 1000000000; next.tv_sec++; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        double err = now_us() - (next.tv_sec * 1e6 + next.tv_nsec / 1e3);
        errors[f] = err < 0 ? -err : err;
        for (int i = 0; i < count; i++) draw_gl_window(ed, &g[i], w, h);
        /* Frames missed are skipped, not queued (as the frame clock's): the next target is after now. */
        while (next.tv_sec * 1e6 + next.tv_nsec / 1e3 + 16666.667 < now_us()) {
            next.tv_nsec += 16666667;
            if (next.tv_nsec >= 1000000000) { next.tv_nsec -= 1000000000; next.tv_sec++; }
        }
    }
    XSync(d, False);
    printf("median_us=%.1f pacing_us=%.1f rss_mb=%.1f\n", (cpu_us() - start) / n, median(errors, n), rss);
    return 0;
}
