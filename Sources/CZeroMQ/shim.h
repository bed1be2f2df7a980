#ifndef PITCHSIDE_CZEROMQ_SHIM_H
#define PITCHSIDE_CZEROMQ_SHIM_H
#include <zmq.h>
#endif
