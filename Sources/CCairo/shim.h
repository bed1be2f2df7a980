#ifndef PITCHSIDE_CCAIRO_SHIM_H
#define PITCHSIDE_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#endif
