/* The driver's files, embedded at build time (C23 #embed): Swift cannot read a file into the binary,
 * and a resource bundle would not travel with a copied executable. */
#include "driver_source.h"

#pragma clang diagnostic ignored "-Wc23-extensions"


static const unsigned char multihead_h[] = {
#embed "../../Driver/multihead.h"
};
static const unsigned char multihead_edid_h[] = {
#embed "../../Driver/multihead_edid.h"
};
static const unsigned char multihead_drv_c[] = {
#embed "../../Driver/multihead_drv.c"
};
static const unsigned char multihead_outputs_c[] = {
#embed "../../Driver/multihead_outputs.c"
};
static const unsigned char multihead_edid_c[] = {
#embed "../../Driver/multihead_edid.c"
};

static const mh_driver_file files[] = {
    { "multihead.h", multihead_h, sizeof(multihead_h) },
    { "multihead_edid.h", multihead_edid_h, sizeof(multihead_edid_h) },
    { "multihead_drv.c", multihead_drv_c, sizeof(multihead_drv_c) },
    { "multihead_outputs.c", multihead_outputs_c, sizeof(multihead_outputs_c) },
    { "multihead_edid.c", multihead_edid_c, sizeof(multihead_edid_c) },
};

const mh_driver_file *
mh_driver_files(size_t *count)
{
    *count = sizeof(files) / sizeof(files[0]);
    return files;
}
