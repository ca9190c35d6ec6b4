/* prctl(2) for the kit's processes: Swift cannot call a variadic C function. */
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

#endif
