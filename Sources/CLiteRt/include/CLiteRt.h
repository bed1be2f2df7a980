#ifndef PITCHSIDE_CLITERT_H
#define PITCHSIDE_CLITERT_H
// Declarations of the LiteRT C API calls Pitchside uses. The runtime ships no
// headers, so these follow the public LiteRT repository's litert/c/*.h (as of
// ai-edge-litert 2.3.0, whose libLiteRt.so exports them with symbol version
// VERS_1.0). The library is opened at run time (dlopen), so the package builds
// without it; `ps_litert_open` resolves every function into a table.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int LiteRtStatus;               // 0 = kLiteRtStatusOk
typedef size_t LiteRtParamIndex;
typedef int LiteRtHwAcceleratorSet;     // bit set: 1 = CPU
typedef int LiteRtTensorBufferLockMode; // 0 = read, 1 = write, 2 = read/write
typedef int LiteRtElementType;          // 1 = float32

typedef struct LiteRtEnvironmentT *LiteRtEnvironment;
typedef struct LiteRtModelT *LiteRtModel;
typedef struct LiteRtSignatureT *LiteRtSignature;
typedef struct LiteRtTensorT *LiteRtTensor;
typedef struct LiteRtOptionsT *LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT *LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT *LiteRtCompiledModel;
typedef struct LiteRtTensorBufferRequirementsT *LiteRtTensorBufferRequirements;
typedef struct LiteRtTensorBufferT *LiteRtTensorBuffer;

enum { PS_LITERT_MAX_RANK = 8 };

typedef struct {
  unsigned int rank : 7;
  unsigned int has_strides : 1;
  int32_t dimensions[PS_LITERT_MAX_RANK];
  uint32_t strides[PS_LITERT_MAX_RANK];
} LiteRtLayout;

typedef struct {
  LiteRtElementType element_type;
  LiteRtLayout layout;
} LiteRtRankedTensorType;

/// The LiteRT functions Pitchside calls, resolved from the shared library.
typedef struct {
  LiteRtStatus (*CreateEnvironment)(int num_options, const void *options, LiteRtEnvironment *env);
  void (*DestroyEnvironment)(LiteRtEnvironment env);

  LiteRtStatus (*CreateModelFromFile)(LiteRtEnvironment env, const char *path, LiteRtModel *model);
  void (*DestroyModel)(LiteRtModel model);
  LiteRtStatus (*GetNumModelSignatures)(LiteRtModel model, LiteRtParamIndex *count);
  LiteRtStatus (*GetModelSignature)(LiteRtModel model, LiteRtParamIndex index, LiteRtSignature *signature);
  LiteRtStatus (*GetNumSignatureInputs)(LiteRtSignature signature, LiteRtParamIndex *count);
  LiteRtStatus (*GetNumSignatureOutputs)(LiteRtSignature signature, LiteRtParamIndex *count);
  LiteRtStatus (*GetSignatureInputTensorByIndex)(LiteRtSignature signature, LiteRtParamIndex index, LiteRtTensor *tensor);
  LiteRtStatus (*GetSignatureOutputTensorByIndex)(LiteRtSignature signature, LiteRtParamIndex index, LiteRtTensor *tensor);
  LiteRtStatus (*GetRankedTensorType)(LiteRtTensor tensor, LiteRtRankedTensorType *type);

  LiteRtStatus (*CreateOptions)(LiteRtOptions *options);
  void (*DestroyOptions)(LiteRtOptions options);
  LiteRtStatus (*SetOptionsHardwareAccelerators)(LiteRtOptions options, LiteRtHwAcceleratorSet accelerators);
  LiteRtStatus (*CreateOpaqueOptions)(const char *identifier, void *payload, void (*payload_destructor)(void *),
                                      LiteRtOpaqueOptions *options);
  void (*DestroyOpaqueOptions)(LiteRtOpaqueOptions options);
  // On success the options own the opaque options.
  LiteRtStatus (*AddOpaqueOptions)(LiteRtOptions options, LiteRtOpaqueOptions opaque);

  LiteRtStatus (*CreateCompiledModel)(LiteRtEnvironment env, LiteRtModel model, LiteRtOptions options,
                                      LiteRtCompiledModel *compiled);
  void (*DestroyCompiledModel)(LiteRtCompiledModel compiled);
  // The requirements stay owned by the compiled model.
  LiteRtStatus (*GetCompiledModelInputBufferRequirements)(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                                          LiteRtParamIndex index,
                                                          LiteRtTensorBufferRequirements *requirements);
  LiteRtStatus (*GetCompiledModelOutputBufferRequirements)(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                                           LiteRtParamIndex index,
                                                           LiteRtTensorBufferRequirements *requirements);
  LiteRtStatus (*RunCompiledModel)(LiteRtCompiledModel compiled, LiteRtParamIndex signature, size_t num_inputs,
                                   LiteRtTensorBuffer *inputs, size_t num_outputs, LiteRtTensorBuffer *outputs);

  LiteRtStatus (*CreateManagedTensorBufferFromRequirements)(LiteRtEnvironment env, const LiteRtRankedTensorType *type,
                                                            LiteRtTensorBufferRequirements requirements,
                                                            LiteRtTensorBuffer *buffer);
  void (*DestroyTensorBuffer)(LiteRtTensorBuffer buffer);
  LiteRtStatus (*GetTensorBufferSize)(LiteRtTensorBuffer buffer, size_t *size);
  LiteRtStatus (*LockTensorBuffer)(LiteRtTensorBuffer buffer, void **host_memory, LiteRtTensorBufferLockMode mode);
  LiteRtStatus (*UnlockTensorBuffer)(LiteRtTensorBuffer buffer);
} PSLiteRtApi;

/// Opens the library at `path` and fills `api`. Returns 0 on success; otherwise
/// writes a message (dlerror or the missing symbol) into `error` and returns -1.
/// The library stays loaded for the life of the process.
int ps_litert_open(const char *path, PSLiteRtApi *api, char *error, size_t error_size);

/// A heap copy of `text` for LiteRtCreateOpaqueOptions, released with `ps_litert_free`.
char *ps_litert_strdup(const char *text);

/// `free`, as a function pointer LiteRT can call to release a payload.
void ps_litert_free(void *pointer);

#ifdef __cplusplus
}
#endif
#endif
