#include "CFFmpeg.h"
#include <errno.h>

int pitchside_averror_eagain(void) { return AVERROR(EAGAIN); }
int pitchside_averror_eof(void) { return AVERROR_EOF; }
int64_t pitchside_av_nopts_value(void) { return AV_NOPTS_VALUE; }
void pitchside_av_strerror(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }
void pitchside_av_set_log_level(int level) { av_log_set_level(level); }
int pitchside_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
int pitchside_averror_enoent(void) { return AVERROR(ENOENT); }

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Captured log text: FFmpeg calls the callback from any thread, so a mutex guards it.
static pthread_mutex_t pitchside_log_lock = PTHREAD_MUTEX_INITIALIZER;
static char pitchside_log_text[2048];
static size_t pitchside_log_length = 0;
static int pitchside_log_echo = 0;
static int pitchside_log_at_line_start = 1;

static void pitchside_log_callback(void *avcl, int level, const char *fmt, va_list vl) {
    (void)avcl;
    if (level > av_log_get_level()) return;
    char line[512];
    int n = vsnprintf(line, sizeof line, fmt, vl);
    if (n <= 0) return;
    if ((size_t)n >= sizeof line) n = sizeof line - 1;
    if (pitchside_log_echo) fputs(line, stderr);
    pthread_mutex_lock(&pitchside_log_lock);
    // Keep the most recent text: when full, start again rather than drop the newest line.
    if (pitchside_log_length + (size_t)n + 3 >= sizeof pitchside_log_text) pitchside_log_length = 0;
    for (int i = 0; i < n; i++) {
        char c = line[i];
        if (c == '\n') { pitchside_log_at_line_start = 1; continue; }
        if (pitchside_log_at_line_start && pitchside_log_length > 0) {
            pitchside_log_text[pitchside_log_length++] = ';';
            pitchside_log_text[pitchside_log_length++] = ' ';
        }
        pitchside_log_at_line_start = 0;
        pitchside_log_text[pitchside_log_length++] = c;
    }
    pitchside_log_text[pitchside_log_length] = 0;
    pthread_mutex_unlock(&pitchside_log_lock);
}

void pitchside_av_capture_log(int level, int echo) {
    pitchside_log_echo = echo;
    av_log_set_level(level);
    av_log_set_callback(pitchside_log_callback);
}

size_t pitchside_av_take_log(char *buffer, size_t size) {
    if (size == 0) return 0;
    pthread_mutex_lock(&pitchside_log_lock);
    size_t n = pitchside_log_length < size - 1 ? pitchside_log_length : size - 1;
    memcpy(buffer, pitchside_log_text, n);
    buffer[n] = 0;
    pitchside_log_length = 0;
    pitchside_log_text[0] = 0;
    pitchside_log_at_line_start = 1;
    pthread_mutex_unlock(&pitchside_log_lock);
    return n;
}

static void pitchside_expand_luma_row(const uint8_t *restrict source, uint8_t *restrict target, int width) {
    for (int x = 0; x < width; x++) {
        int v = ((source[x] - 16) * 19077 + 8192) >> 14;
        target[x] = v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
    }
}

void pitchside_copy_luma(const uint8_t *source, int source_stride, uint8_t *target, int target_stride,
                         int width, int height, int limited_range) {
    for (int y = 0; y < height; y++) {
        const uint8_t *row = source + (ptrdiff_t)y * source_stride;
        uint8_t *out = target + (ptrdiff_t)y * target_stride;
        if (limited_range) pitchside_expand_luma_row(row, out, width);
        else memcpy(out, row, (size_t)width);
    }
}

void pitchside_box_shrink(const uint8_t *source, int source_stride, uint8_t *target, int target_stride,
                          int width, int height, int factor, uint16_t *restrict row_sums) {
    const int source_width = width * factor;
    const uint32_t reciprocal = (uint32_t)((65536 + factor * factor / 2) / (factor * factor));
    for (int y = 0; y < height; y++) {
        // Sum `factor` source rows column by column (vectorises), then each run of `factor` columns.
        const uint8_t *first = source + (ptrdiff_t)y * factor * source_stride;
        for (int x = 0; x < source_width; x++) row_sums[x] = first[x];
        for (int k = 1; k < factor; k++) {
            const uint8_t *restrict row = first + (ptrdiff_t)k * source_stride;
            for (int x = 0; x < source_width; x++) row_sums[x] += row[x];
        }
        uint8_t *out = target + (ptrdiff_t)y * target_stride;
        if (factor == 2) {
            for (int x = 0; x < width; x++) out[x] = (uint8_t)((row_sums[2 * x] + row_sums[2 * x + 1] + 2) >> 2);
        } else {
            for (int x = 0; x < width; x++) {
                uint32_t sum = 0;
                const uint16_t *box = row_sums + x * factor;
                for (int k = 0; k < factor; k++) sum += box[k];
                out[x] = (uint8_t)((sum * reciprocal + 32768) >> 16);
            }
        }
    }
}
