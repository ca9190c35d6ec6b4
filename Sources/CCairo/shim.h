#ifndef MULTIHEAD_CCAIRO_SHIM_H
#define MULTIHEAD_CCAIRO_SHIM_H
#include <cairo.h>
#endif
