#include "CLiteRt.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESOLVE(field)                                                                   \
  do {                                                                                   \
    *(void **)(&api->field) = dlsym(handle, "LiteRt" #field);                            \
    if (api->field == NULL) {                                                            \
      snprintf(error, error_size, "%s does not export LiteRt%s (not a LiteRT 2.x runtime?)", \
               path, #field);                                                            \
      return -1;                                                                         \
    }                                                                                    \
  } while (0)

int ps_litert_open(const char *path, PSLiteRtApi *api, char *error, size_t error_size) {
  memset(api, 0, sizeof *api);
  // RTLD_LOCAL: the runtime's C++ symbols stay out of the global namespace.
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *reason = dlerror();
    snprintf(error, error_size, "%s", reason ? reason : "dlopen failed");
    return -1;
  }
  RESOLVE(CreateEnvironment);
  RESOLVE(DestroyEnvironment);
  RESOLVE(CreateModelFromFile);
  RESOLVE(DestroyModel);
  RESOLVE(GetNumModelSignatures);
  RESOLVE(GetModelSignature);
  RESOLVE(GetNumSignatureInputs);
  RESOLVE(GetNumSignatureOutputs);
  RESOLVE(GetSignatureInputTensorByIndex);
  RESOLVE(GetSignatureOutputTensorByIndex);
  RESOLVE(GetRankedTensorType);
  RESOLVE(CreateOptions);
  RESOLVE(DestroyOptions);
  RESOLVE(SetOptionsHardwareAccelerators);
  RESOLVE(CreateOpaqueOptions);
  RESOLVE(DestroyOpaqueOptions);
  RESOLVE(AddOpaqueOptions);
  RESOLVE(CreateCompiledModel);
  RESOLVE(DestroyCompiledModel);
  RESOLVE(GetCompiledModelInputBufferRequirements);
  RESOLVE(GetCompiledModelOutputBufferRequirements);
  RESOLVE(RunCompiledModel);
  RESOLVE(CreateManagedTensorBufferFromRequirements);
  RESOLVE(DestroyTensorBuffer);
  RESOLVE(GetTensorBufferSize);
  RESOLVE(LockTensorBuffer);
  RESOLVE(UnlockTensorBuffer);
  return 0;
}

char *ps_litert_strdup(const char *text) { return strdup(text); }

void ps_litert_free(void *pointer) { free(pointer); }
