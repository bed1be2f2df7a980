/*
 * pitchside-scores: follows Pitchside's score stream from C.
 *
 * Subscribes to the aggregator's game events (ZeroMQ SUB, topics
 * game/<stream>/<event>), decodes each pitchside.v1.GameEvent with protobuf-c
 * and prints one line per event on stdout. It shows that the score stream is
 * readable without any Swift: libzmq, libprotobuf-c and the C code generated
 * from proto/pitchside.proto are all it needs.
 *
 *   make -C clients/c
 *   clients/c/pitchside-scores                               # tcp://127.0.0.1:5570, every stream
 *   clients/c/pitchside-scores -e tcp://10.0.0.5:5570 -s court-1 -n 10
 *
 * Output, one line per event (enum names without their prefix; strings other than plain
 * words [A-Za-z0-9._:-]+ in double quotes with \" \\ \xNN escapes):
 *   <stream> #<event_seq> game=<n> pts=<us> state <FROM> -> <TO> stage=<STAGE> reason=<text>
 *   <stream> #<event_seq> game=<n> pts=<us> throw <index> player=<name> type=<TYPE> outcome=<OUTCOME> points=<n> ...
 *   <stream> #<event_seq> game=<n> pts=<us> score mode=<MODE> throws=<n> inning=<n> <player>=<score> ...
 *   <stream> #<event_seq> game=<n> pts=<us> summary mode=<MODE> winner=<name> max=<n> throws=<n> <player>=<score> ...
 *
 * A message that is not [topic, GameEvent] is reported on stderr, counted and
 * skipped. Exit status: 0 after -n events or on SIGINT/SIGTERM, 1 if ZeroMQ
 * fails, 2 on bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

#include "generated/pitchside.pb-c.h"

/* Far above any real event (a summary of 8 throws is a few KiB); bigger payloads are skipped unread. */
#define MAX_PAYLOAD_BYTES (4u << 20)

static volatile sig_atomic_t stop_requested = 0;

static void on_signal(int signo) {
    (void)signo;
    stop_requested = 1;
}

static void usage(FILE *out) {
    fprintf(out,
            "usage: pitchside-scores [-e ENDPOINT] [-s STREAM] [-n COUNT]\n"
            "  -e ENDPOINT  the aggregator's event PUB (default tcp://127.0.0.1:5570)\n"
            "  -s STREAM    only this stream (default: every stream, topic filter game/)\n"
            "  -n COUNT     exit after COUNT events (default: run until SIGINT/SIGTERM)\n");
}

/* Prints a string as is when it is a plain word ([A-Za-z0-9._:-]+, like stream ids and topic
   segments), else in double quotes with quotes, backslashes and non-printable bytes escaped. */
static void print_text(const char *s) {
    const unsigned char *text = (const unsigned char *)(s ? s : "");
    int plain = *text != 0;
    for (const unsigned char *p = text; *p && plain; p++) {
        plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                *p == '.' || *p == '_' || *p == ':' || *p == '-';
    }
    if (plain) {
        fputs((const char *)text, stdout);
        return;
    }
    putchar('"');
    for (const unsigned char *p = text; *p; p++) {
        if (*p == '"' || *p == '\\') {
            putchar('\\');
            putchar(*p);
        } else if (*p < 0x20 || *p >= 0x7f) {
            printf("\\x%02x", *p);
        } else {
            putchar(*p);
        }
    }
    putchar('"');
}

/* The value's name without the enum's prefix (GAME_STATE_TRACK_THROWS -> TRACK_THROWS); a number if unknown. */
static void print_enum(const ProtobufCEnumDescriptor *descriptor, const char *prefix, int value) {
    const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(descriptor, value);
    if (v == NULL) {
        printf("%d", value);
        return;
    }
    size_t n = strlen(prefix);
    printf("%s", strncmp(v->name, prefix, n) == 0 ? v->name + n : v->name);
}

static void print_scores(size_t count, Pitchside__V1__PlayerScore **scores) {
    for (size_t i = 0; i < count; i++) {
        putchar(' ');
        print_text(scores[i]->player);
        printf("=%" PRId32, scores[i]->score);
    }
}

static void print_event(const Pitchside__V1__GameEvent *e) {
    print_text(e->stream_id);
    printf(" #%" PRIu64 " game=%" PRIu32 " pts=%" PRId64 " ", e->event_seq, e->game_index, e->pts_us);
    switch (e->event_case) {
    case PITCHSIDE__V1__GAME_EVENT__EVENT_STATE_CHANGED: {
        const Pitchside__V1__StateChanged *s = e->state_changed;
        printf("state ");
        print_enum(&pitchside__v1__game_state__descriptor, "GAME_STATE_", s->from);
        printf(" -> ");
        print_enum(&pitchside__v1__game_state__descriptor, "GAME_STATE_", s->to);
        printf(" stage=");
        print_enum(&pitchside__v1__setup_stage__descriptor, "SETUP_STAGE_", s->setup_stage);
        printf(" reason=");
        print_text(s->reason);
        break;
    }
    case PITCHSIDE__V1__GAME_EVENT__EVENT_THROW_COMPLETED: {
        const Pitchside__V1__ThrowCompleted *t = e->throw_completed;
        printf("throw %" PRIu32 " player=", t->throw_index);
        print_text(t->player);
        printf(" type=");
        print_enum(&pitchside__v1__throw_type__descriptor, "THROW_TYPE_", t->type);
        printf(" outcome=");
        print_enum(&pitchside__v1__throw_outcome__descriptor, "THROW_OUTCOME_", t->outcome);
        printf(" points=%" PRId32 " speed=%.2fm/s launch=%.1fdeg release=%.1fdeg census=%s inning=%" PRIu32,
               t->points, t->release_speed_mps, t->launch_angle_deg, t->release_angle_deg,
               t->confirmed_by_census ? "yes" : "no", t->inning);
        break;
    }
    case PITCHSIDE__V1__GAME_EVENT__EVENT_SCORE_UPDATE: {
        const Pitchside__V1__ScoreUpdate *s = e->score_update;
        printf("score mode=");
        print_enum(&pitchside__v1__scoring_mode__descriptor, "SCORING_MODE_", s->mode);
        printf(" throws=%" PRIu32 " inning=%" PRIu32, s->throw_count, s->inning);
        print_scores(s->n_scores, s->scores);
        break;
    }
    case PITCHSIDE__V1__GAME_EVENT__EVENT_SUMMARY: {
        const Pitchside__V1__GameSummary *s = e->summary;
        printf("summary mode=");
        print_enum(&pitchside__v1__scoring_mode__descriptor, "SCORING_MODE_", s->mode);
        printf(" winner=");
        print_text(s->winner);
        printf(" max=%" PRIu32 " throws=%zu avg_mph=%.1f", s->max_score, s->n_throws, s->average_speed_mph);
        print_scores(s->n_scores, s->scores);
        break;
    }
    default:
        /* A GameEvent with no event set, or one from a newer schema this client does not know. */
        printf("other");
        break;
    }
    putchar('\n');
    fflush(stdout);
}

/* Receives every part of one multipart message into parts[0..*count-1] (extra parts are closed).
   Returns 0, or -1 with errno set (EINTR / EAGAIN when nothing is there). */
static int receive_message(void *socket, zmq_msg_t parts[2], int *count) {
    *count = 0;
    for (;;) {
        zmq_msg_t part;
        zmq_msg_init(&part);
        if (zmq_msg_recv(&part, socket, *count == 0 ? ZMQ_DONTWAIT : 0) < 0) {
            int saved = errno;
            zmq_msg_close(&part);
            for (int i = 0; i < *count && i < 2; i++) zmq_msg_close(&parts[i]);
            errno = saved;
            return -1;
        }
        int more = zmq_msg_more(&part);
        if (*count < 2) {
            parts[*count] = part;
        } else {
            zmq_msg_close(&part);
        }
        (*count)++;
        if (!more) return 0;
    }
}

/* Reports the first successful handshake on stderr, so a caller knows events will now arrive. */
static void report_connection(void *monitor, const char *endpoint, int *connected) {
    zmq_msg_t header, address;
    zmq_msg_init(&header);
    zmq_msg_init(&address);
    while (zmq_msg_recv(&header, monitor, ZMQ_DONTWAIT) >= 0) {
        if (zmq_msg_recv(&address, monitor, 0) < 0) break;
        uint16_t event;
        memcpy(&event, zmq_msg_data(&header), sizeof event);
        if (event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED && !*connected) {
            *connected = 1;
            fprintf(stderr, "pitchside-scores: connected to %s\n", endpoint);
        } else if (event == ZMQ_EVENT_DISCONNECTED && *connected) {
            *connected = 0;
            fprintf(stderr, "pitchside-scores: disconnected from %s; reconnecting\n", endpoint);
        }
    }
    zmq_msg_close(&header);
    zmq_msg_close(&address);
}

int main(int argc, char **argv) {
    const char *endpoint = "tcp://127.0.0.1:5570";
    const char *stream = NULL;
    long long limit = -1;
    int opt;
    while ((opt = getopt(argc, argv, "e:s:n:h")) != -1) {
        switch (opt) {
        case 'e': endpoint = optarg; break;
        case 's': stream = optarg; break;
        case 'n': {
            char *end = NULL;
            errno = 0;
            limit = strtoll(optarg, &end, 10);
            if (errno != 0 || end == optarg || *end != '\0' || limit <= 0) {
                fprintf(stderr, "pitchside-scores: error: -n needs a positive count, not '%s'\n", optarg);
                return 2;
            }
            break;
        }
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        fprintf(stderr, "pitchside-scores: error: unexpected argument '%s'\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    char filter[256];
    int filter_length = snprintf(filter, sizeof filter, stream ? "game/%s/" : "game/", stream);
    if (filter_length < 0 || (size_t)filter_length >= sizeof filter) {
        fprintf(stderr, "pitchside-scores: error: stream name too long\n");
        return 2;
    }

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);

    void *context = zmq_ctx_new();
    void *sub = context ? zmq_socket(context, ZMQ_SUB) : NULL;
    if (sub == NULL) {
        fprintf(stderr, "pitchside-scores: error: cannot create a ZeroMQ socket: %s\n", zmq_strerror(errno));
        return 1;
    }
    int linger = 0;
    zmq_setsockopt(sub, ZMQ_LINGER, &linger, sizeof linger);
    if (zmq_setsockopt(sub, ZMQ_SUBSCRIBE, filter, (size_t)filter_length) != 0 ||
        zmq_socket_monitor(sub, "inproc://pitchside-scores-monitor",
                           ZMQ_EVENT_HANDSHAKE_SUCCEEDED | ZMQ_EVENT_DISCONNECTED) != 0) {
        fprintf(stderr, "pitchside-scores: error: cannot set up the socket: %s\n", zmq_strerror(errno));
        return 1;
    }
    void *monitor = zmq_socket(context, ZMQ_PAIR);
    if (monitor == NULL || zmq_connect(monitor, "inproc://pitchside-scores-monitor") != 0) {
        fprintf(stderr, "pitchside-scores: error: cannot monitor the socket: %s\n", zmq_strerror(errno));
        return 1;
    }
    if (zmq_connect(sub, endpoint) != 0) {
        fprintf(stderr, "pitchside-scores: error: cannot connect to %s: %s\n", endpoint, zmq_strerror(errno));
        return 1;
    }
    fprintf(stderr, "pitchside-scores: following %s* on %s\n", filter, endpoint);

    long long printed = 0, malformed = 0;
    int connected = 0, status = 0;
    zmq_pollitem_t items[2] = {{sub, 0, ZMQ_POLLIN, 0}, {monitor, 0, ZMQ_POLLIN, 0}};
    while (!stop_requested && (limit < 0 || printed < limit)) {
        if (zmq_poll(items, 2, 250) < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "pitchside-scores: error: poll failed: %s\n", zmq_strerror(errno));
            status = 1;
            break;
        }
        if (items[1].revents & ZMQ_POLLIN) report_connection(monitor, endpoint, &connected);
        while (!stop_requested && (limit < 0 || printed < limit)) {
            zmq_msg_t parts[2];
            int count = 0;
            if (receive_message(sub, parts, &count) != 0) {
                if (errno == EAGAIN || errno == EINTR) break;
                fprintf(stderr, "pitchside-scores: error: receive failed: %s\n", zmq_strerror(errno));
                status = 1;
                stop_requested = 1;
                break;
            }
            if (count != 2) {
                malformed++;
                fprintf(stderr, "pitchside-scores: skipped a message of %d part(s); expected [topic, GameEvent]\n", count);
                for (int i = 0; i < count && i < 2; i++) zmq_msg_close(&parts[i]);
                continue;
            }
            size_t topic_size = zmq_msg_size(&parts[0]), size = zmq_msg_size(&parts[1]);
            int shown = topic_size > 128 ? 128 : (int)topic_size;
            const char *topic = (const char *)zmq_msg_data(&parts[0]);
            Pitchside__V1__GameEvent *event = NULL;
            if (size > MAX_PAYLOAD_BYTES) {
                malformed++;
                fprintf(stderr, "pitchside-scores: skipped an oversized message on %.*s (%zu bytes)\n", shown, topic, size);
            } else if ((event = pitchside__v1__game_event__unpack(NULL, size, zmq_msg_data(&parts[1]))) == NULL) {
                malformed++;
                fprintf(stderr, "pitchside-scores: skipped a message on %.*s that does not decode as pitchside.v1.GameEvent (%zu bytes)\n",
                        shown, topic, size);
            } else {
                print_event(event);
                printed++;
                pitchside__v1__game_event__free_unpacked(event, NULL);
            }
            zmq_msg_close(&parts[0]);
            zmq_msg_close(&parts[1]);
        }
    }

    fprintf(stderr, "pitchside-scores: %lld event(s), %lld malformed message(s) skipped\n", printed, malformed);
    zmq_socket_monitor(sub, NULL, 0);
    zmq_close(monitor);
    zmq_close(sub);
    zmq_ctx_term(context);
    return status;
}
