/* Multihead's Xorg driver (Driver/), its source files embedded in whatever links this module: a
 * copied or installed `multihead` builds the driver for the machine's X server without the checkout. */
#ifndef MULTIHEAD_DRIVER_SOURCE_H
#define MULTIHEAD_DRIVER_SOURCE_H

#include <stddef.h>

/* One file of the driver: its name in Driver/ and its bytes. */
typedef struct {
    const char *name;
    const unsigned char *bytes;
    size_t length;
} mh_driver_file;

/* The driver's files (headers first, then the sources to compile); their count in *count. */
const mh_driver_file *mh_driver_files(size_t *count);

#endif
