/* A GLFW 3 client that says what GLFW sees of the X server's monitors, one line at a time:
 *   "monitors N", then "monitor NAME WxH+X+Y WxH@HZ" per monitor, "primary NAME|none", "end"
 *   at start and for every "list" read on stdin; "connected NAME" / "disconnected NAME" from GLFW's
 *   monitor callback. Ends at end of stdin. Built by the tests against Debian's libglfw3-dev. */
#include <GLFW/glfw3.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void list(void) {
    int count = 0;
    GLFWmonitor **monitors = glfwGetMonitors(&count);
    printf("monitors %d\n", count);
    for (int i = 0; i < count; i++) {
        int x = 0, y = 0;
        glfwGetMonitorPos(monitors[i], &x, &y);
        const GLFWvidmode *mode = glfwGetVideoMode(monitors[i]);
        printf("monitor %s %dx%d+%d+%d %dx%d@%d\n", glfwGetMonitorName(monitors[i]), mode ? mode->width : 0,
               mode ? mode->height : 0, x, y, mode ? mode->width : 0, mode ? mode->height : 0, mode ? mode->refreshRate : 0);
    }
    GLFWmonitor *primary = glfwGetPrimaryMonitor();
    printf("primary %s\nend\n", primary ? glfwGetMonitorName(primary) : "none");
}

static void changed(GLFWmonitor *monitor, int event) {
    printf("%s %s\n", event == GLFW_CONNECTED ? "connected" : "disconnected", glfwGetMonitorName(monitor));
}

static void failed(int code, const char *text) { printf("error %d %s\n", code, text); }

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    glfwSetErrorCallback(failed);
    if (!glfwInit()) {
        printf("init-failed\n");
        return 1;
    }
    glfwSetMonitorCallback(changed);
    list();
    char line[256];
    size_t used = 0;
    for (;;) {
        glfwWaitEventsTimeout(0.01);
        struct pollfd in = {0, POLLIN, 0};
        while (poll(&in, 1, 0) > 0) {
            ssize_t n = read(0, line + used, sizeof line - 1 - used);
            if (n <= 0) { glfwTerminate(); return 0; }
            used += (size_t)n;
            line[used] = 0;
            char *nl;
            while ((nl = strchr(line, '\n'))) {
                *nl = 0;
                if (strcmp(line, "list") == 0) { glfwPollEvents(); list(); }
                memmove(line, nl + 1, used - (size_t)(nl + 1 - line) + 1);
                used -= (size_t)(nl + 1 - line);
            }
        }
    }
}
