#ifndef PITCHSIDE_CLITERT_H
#define PITCHSIDE_CLITERT_H
// Declarations of the LiteRT C API calls Pitchside uses (no headers ship with
// the runtime). Filled in by the pose module.
#endif
