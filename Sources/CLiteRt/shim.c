#include "CLiteRt.h"
