#ifndef BLOCKS_CURL_SHIM_H
#define BLOCKS_CURL_SHIM_H
#include <curl/curl.h>

#include "../BlocksLazyLoading/lazy_loading.h"

// Every libcurl function CurlTransport.swift uses.
#define BLOCKS_CURL_FUNCTIONS(F, V, P) \
    F(CURLcode, curl_global_init, (long flags), (flags)) \
    F(CURL *, curl_easy_init, (void), ()) \
    V(curl_easy_cleanup, (CURL *handle), (handle)) \
    F(const char *, curl_easy_strerror, (CURLcode code), (code)) \
    F(CURLHcode, curl_easy_header, \
      (CURL *handle, const char *name, size_t index, unsigned int origin, int request, struct curl_header **out), \
      (handle, name, index, origin, request, out)) \
    F(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *line), (list, line)) \
    V(curl_slist_free_all, (struct curl_slist *list), (list)) \
    F(CURLM *, curl_multi_init, (void), ()) \
    F(CURLMcode, curl_multi_cleanup, (CURLM *multi), (multi)) \
    F(CURLMcode, curl_multi_add_handle, (CURLM *multi, CURL *handle), (multi, handle)) \
    F(CURLMcode, curl_multi_remove_handle, (CURLM *multi, CURL *handle), (multi, handle)) \
    F(CURLMcode, curl_multi_perform, (CURLM *multi, int *running), (multi, running)) \
    F(CURLMcode, curl_multi_poll, \
      (CURLM *multi, struct curl_waitfd *extra, unsigned int extraCount, int timeoutMilliseconds, int *ready), \
      (multi, extra, extraCount, timeoutMilliseconds, ready)) \
    F(CURLMsg *, curl_multi_info_read, (CURLM *multi, int *left), (multi, left)) \
    F(const char *, curl_multi_strerror, (CURLMcode code), (code)) \
    P(curl_version_info) \
    P(curl_easy_setopt) \
    P(curl_easy_getinfo) \
    P(curl_multi_setopt)

#if defined(__APPLE__)
// The system's copy, which macOS ships with its header (in the dyld shared cache since
// macOS 11, so dlopen finds it though no file is there).
BLOCKS_LAZY_LIBRARY(curl, BLOCKS_CURL_FUNCTIONS, "/usr/lib/libcurl.4.dylib", "libcurl.4.dylib")
#else
BLOCKS_LAZY_LIBRARY(curl, BLOCKS_CURL_FUNCTIONS, "libcurl.so.4", "libcurl.so")
#endif
#define BLOCKS_LAZY_TABLE blocks_curl_library()
BLOCKS_LAZY_WRAPPERS(BLOCKS_CURL_FUNCTIONS)
#undef BLOCKS_LAZY_TABLE

// curl_easy_setopt and friends are variadic, which Swift cannot call:
// one typed wrapper per argument kind, through the loaded pointer.
#define BLOCKS_CURL_CALL(name, ...) return blocks_curl_library()->fn_##name(__VA_ARGS__)
static inline CURLcode blocks_curl_setopt_long(CURL *h, CURLoption o, long v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_setopt_string(CURL *h, CURLoption o, const char *v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_setopt_write(CURL *h, CURLoption o, curl_write_callback v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_setopt_xferinfo(CURL *h, CURLoption o, curl_xferinfo_callback v) { BLOCKS_CURL_CALL(curl_easy_setopt, h, o, v); }
static inline CURLcode blocks_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { BLOCKS_CURL_CALL(curl_easy_getinfo, h, i, v); }
static inline CURLcode blocks_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { BLOCKS_CURL_CALL(curl_easy_getinfo, h, i, v); }
static inline CURLcode blocks_curl_getinfo_double(CURL *h, CURLINFO i, double *v) { BLOCKS_CURL_CALL(curl_easy_getinfo, h, i, v); }
static inline CURLcode blocks_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { BLOCKS_CURL_CALL(curl_easy_getinfo, h, i, v); }
static inline CURLcode blocks_curl_getinfo_pointer(CURL *h, CURLINFO i, void **v) { BLOCKS_CURL_CALL(curl_easy_getinfo, h, i, v); }
static inline CURLMcode blocks_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { BLOCKS_CURL_CALL(curl_multi_setopt, m, o, v); }
static inline curl_version_info_data *blocks_curl_version_info(void) { BLOCKS_CURL_CALL(curl_version_info, CURLVERSION_NOW); }
#undef BLOCKS_CURL_CALL

#endif
