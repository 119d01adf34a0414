// Non-variadic wrappers around libcurl's variadic entry points, for Swift.
// Each wrapper fixes the type of the third argument, as libcurl's documentation requires
// for the option or info it is used with. Also a reader for the one union field Swift needs.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*ccurl_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);

static inline CURLcode ccurl_global_init_default(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_setopt_callback(CURL *handle, CURLoption option, ccurl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode ccurl_multi_setopt_socket_callback(CURLM *multi, curl_socket_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, value);
}

static inline CURLMcode ccurl_multi_setopt_timer_callback(CURLM *multi, curl_multi_timer_callback value) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, value);
}

// The socket open and close callbacks of an easy handle, with the pointer both are given.
static inline CURLcode ccurl_setopt_socket_callbacks(CURL *handle, curl_opensocket_callback open,
                                                     curl_closesocket_callback close, void *data) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, data);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_CLOSESOCKETFUNCTION, close);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_CLOSESOCKETDATA, data);
    return code;
}

// The result code of a finished transfer (a `CURLMSG_DONE` message), which libcurl keeps in a union.
static inline CURLcode ccurl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#ifdef __linux__
// The driver thread's wait (CurlSocketEvents): epoll for the sockets of libcurl's socket interface
// and an eventfd for wakeups. epoll_event is a packed struct with a union; these helpers keep it on
// the C side and hand Swift the descriptor and the event bits.
#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

// A socket for libcurl's connection (its CURLOPT_OPENSOCKETFUNCTION), close-on-exec; -1 on failure.
static inline int ccurl_open_socket(const struct curl_sockaddr *address) {
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

static inline int ccurl_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

static inline int ccurl_eventfd_create(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

// epoll_ctl with EPOLL_CTL_ADD, _MOD or _DEL for `fd`, reported by ccurl_epoll_wait as `key`:
// 0, or errno.
static inline int ccurl_epoll_control(int epoll, int operation, int fd, unsigned int events, int key) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = key;
    return epoll_ctl(epoll, operation, fd, &event) == 0 ? 0 : errno;
}

// epoll_wait into `fds` and `events` (`capacity` each): the number of ready descriptors, 0 on
// timeout or interruption.
static inline int ccurl_epoll_wait(int epoll, int *fds, unsigned int *events, int capacity, int milliseconds) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, ready, capacity, milliseconds);
    for (int index = 0; index < count; index++) {
        fds[index] = ready[index].data.fd;
        events[index] = ready[index].events;
    }
    return count < 0 ? 0 : count;
}

// Adds 1 to the eventfd's counter (a new edge for an edge-triggered watch); when the counter is
// full (after 2^64 - 2 additions), empties it first.
static inline void ccurl_eventfd_signal(int fd) {
    uint64_t one = 1;
    if (write(fd, &one, sizeof one) < 0 && errno == EAGAIN) {
        uint64_t count;
        (void)!read(fd, &count, sizeof count);
        (void)!write(fd, &one, sizeof one);
    }
}
#endif

#endif
