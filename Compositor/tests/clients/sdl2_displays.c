/* An SDL 2 client on native Wayland (SDL_VIDEODRIVER=wayland) for the compositor's tests: prints one
 * JSON line with SDL's display list at start, at each SDL_DISPLAYEVENT (connected, disconnected,
 * orientation) and for each "list" read on stdin, with the CLOCK_MONOTONIC time it saw it; each display
 * with its name, bounds (SDL_GetDisplayBounds), current and desktop modes and SDL_GetDisplayDPI. With
 * --window it also shows a 300x200 SDL_WINDOW_ALLOW_HIGHDPI window (cleared by SDL's renderer) and
 * prints a "window" line whenever its size in points or in pixels (SDL_GetWindowSizeInPixels: SDL 2's
 * only sign of a Wayland output's scale) or its display changes. "init-failed REASON" and exit 1 when
 * SDL_Init fails. Ends at end of stdin. Built by the tests: cc sdl2_displays.c $(pkg-config --cflags
 * --libs sdl2). */
#include <SDL.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A JSON string of a name SDL gives (printable ASCII kept, anything else as '?'). */
static void json_string(const char *s) {
    putchar('"');
    for (; s != NULL && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            printf("\\%c", c);
        } else {
            putchar(c >= 0x20 && c < 0x7f ? c : '?');
        }
    }
    putchar('"');
}

static void list(const char *reason, int index) {
    int count = SDL_GetNumVideoDisplays();
    printf("{\"event\":\"displays\",\"reason\":\"%s\",\"index\":%d,\"driver\":", reason, index);
    json_string(SDL_GetCurrentVideoDriver());
    printf(",\"displays\":[");
    for (int i = 0; i < count; i++) {
        SDL_Rect r = {0, 0, 0, 0};
        SDL_DisplayMode mode = {0, 0, 0, 0, 0}, desktop = {0, 0, 0, 0, 0}, largest = {0, 0, 0, 0, 0};
        float ddpi = 0, hdpi = 0, vdpi = 0;
        SDL_GetDisplayBounds(i, &r);
        SDL_GetCurrentDisplayMode(i, &mode);
        SDL_GetDesktopDisplayMode(i, &desktop);
        SDL_GetDisplayMode(i, 0, &largest); /* SDL sorts the list largest first */
        int has_dpi = SDL_GetDisplayDPI(i, &ddpi, &hdpi, &vdpi) == 0;
        printf("%s{\"name\":", i ? "," : "");
        json_string(SDL_GetDisplayName(i));
        printf(",\"bounds\":[%d,%d,%d,%d],\"mode\":[%d,%d,%d],\"desktop\":[%d,%d,%d],\"largest\":[%d,%d,%d]"
               ",\"modes\":%d", r.x, r.y, r.w, r.h, mode.w, mode.h, mode.refresh_rate, desktop.w, desktop.h,
               desktop.refresh_rate, largest.w, largest.h, largest.refresh_rate, SDL_GetNumDisplayModes(i));
        if (has_dpi) {
            printf(",\"dpi\":[%.2f,%.2f,%.2f]}", ddpi, hdpi, vdpi);
        } else {
            printf(",\"dpi\":null}");
        }
    }
    printf("],\"t\":%.6f}\n", now());
}

struct window_state { int w, h, pw, ph, display; };

static void report_window(SDL_Window *window, struct window_state *last) {
    struct window_state s = {0, 0, 0, 0, -1};
    SDL_GetWindowSize(window, &s.w, &s.h);
    SDL_GetWindowSizeInPixels(window, &s.pw, &s.ph);
    s.display = SDL_GetWindowDisplayIndex(window);
    if (memcmp(&s, last, sizeof s) == 0) {
        return;
    }
    *last = s;
    printf("{\"event\":\"window\",\"size\":[%d,%d],\"pixels\":[%d,%d],\"display\":", s.w, s.h, s.pw, s.ph);
    json_string(s.display >= 0 ? SDL_GetDisplayName(s.display) : NULL);
    printf(",\"t\":%.6f}\n", now());
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    int with_window = argc == 2 && strcmp(argv[1], "--window") == 0;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        printf("init-failed %s\n", SDL_GetError());
        return 1;
    }
    list("start", -1);
    SDL_Window *window = NULL;
    SDL_Renderer *renderer = NULL;
    struct window_state last = {0, 0, 0, 0, -2};
    if (with_window) {
        window = SDL_CreateWindow("mh-sdl2", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 300, 200,
                                  SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_RESIZABLE);
        renderer = window ? SDL_CreateRenderer(window, -1, 0) : NULL;
        if (renderer == NULL) {
            printf("init-failed %s\n", SDL_GetError());
            SDL_Quit();
            return 1;
        }
    }
    char line[256];
    size_t used = 0;
    for (;;) {
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, 10)) {
            do {
                if (e.type == SDL_DISPLAYEVENT) {
                    const char *reason = e.display.event == SDL_DISPLAYEVENT_CONNECTED      ? "connected"
                                         : e.display.event == SDL_DISPLAYEVENT_DISCONNECTED ? "disconnected"
                                         : e.display.event == SDL_DISPLAYEVENT_ORIENTATION  ? "orientation"
                                                                                            : "other";
                    list(reason, (int)e.display.display);
                }
            } while (SDL_PollEvent(&e));
        }
        if (window != NULL) {
            SDL_SetRenderDrawColor(renderer, 0x20, 0x60, 0xa0, 0xff);
            SDL_RenderClear(renderer);
            SDL_RenderPresent(renderer);
            report_window(window, &last);
        }
        struct pollfd in = {0, POLLIN, 0};
        while (poll(&in, 1, 0) > 0) {
            ssize_t n = read(0, line + used, sizeof line - 1 - used);
            if (n <= 0) {
                if (renderer) SDL_DestroyRenderer(renderer);
                if (window) SDL_DestroyWindow(window);
                SDL_Quit();
                return 0;
            }
            used += (size_t)n;
            line[used] = 0;
            char *nl;
            while ((nl = strchr(line, '\n'))) {
                *nl = 0;
                if (strcmp(line, "list") == 0) {
                    SDL_PumpEvents();
                    list("list", -1);
                }
                memmove(line, nl + 1, used - (size_t)(nl + 1 - line) + 1);
                used -= (size_t)(nl + 1 - line);
            }
            if (used == sizeof line - 1) {
                used = 0; /* an overlong line: dropped */
            }
        }
    }
}
