#include "CFFmpeg.h"
#include <errno.h>

int pitchside_averror_eagain(void) { return AVERROR(EAGAIN); }
int pitchside_averror_eof(void) { return AVERROR_EOF; }
int64_t pitchside_av_nopts_value(void) { return AV_NOPTS_VALUE; }
void pitchside_av_strerror(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }
void pitchside_av_set_log_level(int level) { av_log_set_level(level); }
