#ifndef PITCHSIDE_CZEROMQ_SHIM_H
#define PITCHSIDE_CZEROMQ_SHIM_H
#include <zmq.h>
// mallopt: libzmq mallocs every large received message; see PitchsideTransport/LargeMessageMemory.
#include <malloc.h>
#endif
