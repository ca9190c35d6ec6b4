/* prctl(2) for the kit's processes: Swift cannot call a variadic C function. */
#include "process_control.h"

#include <sys/prctl.h>

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
