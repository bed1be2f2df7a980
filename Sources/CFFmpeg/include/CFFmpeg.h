#ifndef PITCHSIDE_CFFMPEG_H
#define PITCHSIDE_CFFMPEG_H
// Thin exposure of FFmpeg to Swift: the headers, plus functions for the
// few things that are macros (and so do not import).
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/error.h>
#include <libswscale/swscale.h>

/// AVERROR(EAGAIN), which Swift cannot import.
int pitchside_averror_eagain(void);
/// AVERROR_EOF.
int pitchside_averror_eof(void);
/// AV_NOPTS_VALUE.
int64_t pitchside_av_nopts_value(void);
/// av_err2str into a caller buffer.
void pitchside_av_strerror(int code, char *buffer, size_t size);
/// Silences FFmpeg's own logging below the given level.
void pitchside_av_set_log_level(int level);
/// Routes FFmpeg's log lines at `level` or more severe into a small buffer
/// (read with pitchside_av_take_log) instead of stderr; `echo` also prints them.
void pitchside_av_capture_log(int level, int echo);
/// Copies the lines captured since the last call (joined by "; ") and clears them.
/// Returns the number of bytes written (without the terminating zero).
size_t pitchside_av_take_log(char *buffer, size_t size);
/// AVERROR_INVALIDDATA.
int pitchside_averror_invaliddata(void);
/// AVERROR(ENOENT).
int pitchside_averror_enoent(void);
/// Copies an 8-bit luma plane into a packed GRAY8 buffer; when `limited_range`,
/// expands 16–235 to 0–255 as ((y − 16) × 19077 + 8192) >> 14, clamped (libswscale's
/// fixed point). Plain C so the compiler vectorises it.
void pitchside_copy_luma(const uint8_t *source, int source_stride, uint8_t *target, int target_stride,
                         int width, int height, int limited_range);
/// Shrinks an 8-bit plane by an integer `factor` in both directions, each output
/// sample the rounded mean of a factor × factor box (area averaging, no aliasing).
/// `width` and `height` are the output size; `row_sums` holds width × factor uint16.
void pitchside_box_shrink(const uint8_t *source, int source_stride, uint8_t *target, int target_stride,
                          int width, int height, int factor, uint16_t *row_sums);
#endif
