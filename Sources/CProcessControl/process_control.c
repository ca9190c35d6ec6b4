/* prctl(2) for the kit's processes (Swift cannot call a variadic C function), two socket calls, and the
 * pinning of Mesa's DRI driver in a GL app's process. */
#define _GNU_SOURCE
#include "process_control.h"

#include <sys/socket.h>

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int
mh_set_parent_death_signal(int signal)
{
    return prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0);
}

int
mh_become_subreaper(void)
{
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

int
mh_pidfd_open(int pid)
{
#ifdef SYS_pidfd_open
    return (int) syscall(SYS_pidfd_open, pid, 0);
#else
    return -1;
#endif
}

int
mh_accept_cloexec(int listening)
{
    return accept4(listening, NULL, NULL, SOCK_CLOEXEC);
}

int
mh_peer_uid(int fd, unsigned int *uid)
{
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0)
        return -1;
    *uid = credentials.uid;
    return 0;
}

static int
pin_dri_module(struct dl_phdr_info *info, size_t size, void *count)
{
    (void)size;
    const char *name = info->dlpi_name;
    size_t n = name ? strlen(name) : 0;
    if (n > 7 && strstr(name, "/dri/") && !strcmp(name + n - 7, "_dri.so")
        && dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE))
        ++*(int *)count;
    return 0;
}

int
mh_pin_dri_drivers(void)
{
    int count = 0;
    dl_iterate_phdr(pin_dri_module, &count);
    return count;
}
