/* An SDL 2 client that says what SDL sees of the X server's displays, one line at a time:
 *   "monitors N", then "monitor NAME WxH+X+Y WxH@HZ" per display (display 0 is SDL's primary),
 *   "primary NAME|none", "end" at start and for every "list" read on stdin; "connected NAME" /
 *   "disconnected INDEX" from SDL_DISPLAYEVENT; "init-failed REASON" and exit 1 when SDL_Init fails.
 *   Ends at end of stdin. Built by the tests against Debian's libsdl2-dev. */
#include <SDL.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void list(void) {
    int count = SDL_GetNumVideoDisplays();
    printf("monitors %d\n", count);
    for (int i = 0; i < count; i++) {
        SDL_Rect r = {0, 0, 0, 0};
        SDL_DisplayMode mode = {0, 0, 0, 0, 0};
        SDL_GetDisplayBounds(i, &r);
        SDL_GetCurrentDisplayMode(i, &mode);
        const char *name = SDL_GetDisplayName(i);
        printf("monitor %s %dx%d+%d+%d %dx%d@%d\n", name ? name : "?", r.w, r.h, r.x, r.y, mode.w, mode.h, mode.refresh_rate);
    }
    const char *primary = count > 0 ? SDL_GetDisplayName(0) : NULL;
    printf("primary %s\nend\n", primary ? primary : "none");
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        printf("init-failed %s\n", SDL_GetError());
        return 1;
    }
    list();
    char line[256];
    size_t used = 0;
    for (;;) {
        SDL_Event e;
        if (SDL_WaitEventTimeout(&e, 10)) {
            do {
                if (e.type == SDL_DISPLAYEVENT && e.display.event == SDL_DISPLAYEVENT_CONNECTED) {
                    const char *name = SDL_GetDisplayName((int)e.display.display);
                    printf("connected %s\n", name ? name : "?");
                } else if (e.type == SDL_DISPLAYEVENT && e.display.event == SDL_DISPLAYEVENT_DISCONNECTED) {
                    printf("disconnected %u\n", e.display.display);
                }
            } while (SDL_PollEvent(&e));
        }
        struct pollfd in = {0, POLLIN, 0};
        while (poll(&in, 1, 0) > 0) {
            ssize_t n = read(0, line + used, sizeof line - 1 - used);
            if (n <= 0) { SDL_Quit(); return 0; }
            used += (size_t)n;
            line[used] = 0;
            char *nl;
            while ((nl = strchr(line, '\n'))) {
                *nl = 0;
                if (strcmp(line, "list") == 0) { SDL_PumpEvents(); list(); }
                memmove(line, nl + 1, used - (size_t)(nl + 1 - line) + 1);
                used -= (size_t)(nl + 1 - line);
            }
        }
    }
}
