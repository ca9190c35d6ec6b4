/* prctl(2) for the kit's processes (Swift cannot call a variadic C function), and the two socket calls
 * glibc declares only under _GNU_SOURCE. */
#ifndef MULTIHEAD_PROCESS_CONTROL_H
#define MULTIHEAD_PROCESS_CONTROL_H

/* This process gets `signal` when the thread that started it ends (PR_SET_PDEATHSIG). 0 or -1 (errno). */
int mh_set_parent_death_signal(int signal);

/* A descriptor that polls readable once process `pid` has ended (pidfd_open(2), Linux 5.3), or -1
 * (errno). */
int mh_pidfd_open(int pid);

/* Orphaned descendants of this process are re-parented to it, not to init (PR_SET_CHILD_SUBREAPER), so
 * that it can end them. 0 or -1 (errno). */
int mh_become_subreaper(void);

/* The next connection on a listening socket, close-on-exec (accept4(2), which glibc declares only under
 * _GNU_SOURCE), or -1 (errno). */
int mh_accept_cloexec(int listening);

/* The user ID of the process at the other end of a Unix socket, as the kernel recorded it at connect
 * (SO_PEERCRED; struct ucred needs _GNU_SOURCE). 0, or -1 (errno). */
int mh_peer_uid(int fd, unsigned int *uid);

/* Marks every loaded Mesa DRI driver (a path in a "dri" folder ending in "_dri.so") as never to be
 * unloaded (dlopen with RTLD_NOLOAD | RTLD_NODELETE; the handles are never closed); returns how many it
 * marked. For GLDevice: a driver unloaded at eglTerminate leaks a cache that LeakSanitizer reports from an
 * unknown module. dl_iterate_phdr takes a callback, so this is C. */
int mh_pin_dri_drivers(void);

#endif
