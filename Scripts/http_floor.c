/*
 * The HTTP floor measured from outside the workbench: keep-alive GETs of one URL through libcurl,
 * serially with curl_easy_perform or CONCURRENCY at once on one thread with the multi interface
 * (curl_multi_perform + curl_multi_poll), and the CPU time this process spends per exchange.
 * Scripts/http_floor.py builds it, starts `mpin-workbench serve` on a free loopback port and
 * reads the server's CPU time around each batch, so both sides of an exchange are measured.
 *
 *   cc -O2 Scripts/http_floor.c -lcurl -o http_floor
 *   ./http_floor URL EXCHANGES CONCURRENCY     (CONCURRENCY 0: serial easy interface)
 *
 * Prints one line: `client_cpu_us_per_exchange=<x> exchanges_per_second=<y>`; exit status 1 when
 * an exchange fails or is not answered with 200, 2 for bad arguments. Only the given URL is
 * contacted (the script gives a loopback one); every transfer has a 30 s time limit.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data; (void)user;
    return size * count;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double wall_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

static void configure(CURL *handle, const char *url) {
    curl_easy_reset(handle);
    curl_easy_setopt(handle, CURLOPT_URL, url);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(handle, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
}

static int answered_ok(CURL *handle) {
    long status = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    if (status != 200) fprintf(stderr, "http_floor: status %ld, not 200\n", status);
    return status == 200;
}

static long bounded(const char *text, const char *name, long low, long high) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < low || value > high) {
        fprintf(stderr, "http_floor: %s must be an integer from %ld to %ld, got '%s'\n", name, low, high, text);
        exit(2);
    }
    return value;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: http_floor URL EXCHANGES CONCURRENCY\n");
        return 2;
    }
    const char *url = argv[1];
    long exchanges = bounded(argv[2], "EXCHANGES", 1, 10000000);
    long concurrency = bounded(argv[3], "CONCURRENCY", 0, 256);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return 1;
    double cpu_start = cpu_seconds(), wall_start = wall_seconds();

    if (concurrency == 0) {
        CURL *handle = curl_easy_init();
        if (!handle) return 1;
        for (long i = 0; i < exchanges; i++) {
            configure(handle, url);
            CURLcode code = curl_easy_perform(handle);
            if (code != CURLE_OK) { fprintf(stderr, "http_floor: %s\n", curl_easy_strerror(code)); return 1; }
            if (!answered_ok(handle)) return 1;
        }
        curl_easy_cleanup(handle);
    } else {
        CURLM *multi = curl_multi_init();
        CURL *handles[256];
        long started = 0, finished = 0;
        if (!multi) return 1;
        curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, concurrency);
        for (long i = 0; i < concurrency && started < exchanges; i++, started++) {
            handles[i] = curl_easy_init();
            if (!handles[i]) return 1;
            configure(handles[i], url);
            curl_multi_add_handle(multi, handles[i]);
        }
        while (finished < exchanges) {
            int running = 0, left = 0;
            curl_multi_perform(multi, &running);
            CURLMsg *message;
            while ((message = curl_multi_info_read(multi, &left))) {
                if (message->msg != CURLMSG_DONE) continue;
                CURL *handle = message->easy_handle;
                if (message->data.result != CURLE_OK) {
                    fprintf(stderr, "http_floor: %s\n", curl_easy_strerror(message->data.result));
                    return 1;
                }
                if (!answered_ok(handle)) return 1;
                curl_multi_remove_handle(multi, handle);
                finished++;
                if (started < exchanges) {
                    configure(handle, url);
                    curl_multi_add_handle(multi, handle);
                    started++;
                }
            }
            if (finished < exchanges) curl_multi_poll(multi, NULL, 0, 1000, NULL);
        }
    }
    double cpu = cpu_seconds() - cpu_start, wall = wall_seconds() - wall_start;
    printf("client_cpu_us_per_exchange=%.1f exchanges_per_second=%.0f\n", cpu * 1e6 / exchanges, exchanges / wall);
    return 0;
}
