#ifndef BLOCKS_CURL_SHIM_H
#define BLOCKS_CURL_SHIM_H
#include <curl/curl.h>

// ---- Lazy loading: identical in every shim; copy this block for a new library. ----
//
// The library is not linked. It is opened with dlopen the first time a wrapper runs, so
// a command that never uses it never maps it (or its dependencies) at start-up. The
// library's own header is still included, for types, constants and prototypes; the
// prototypes give each function pointer its exact type, so a wrapper whose arguments do
// not match the real function fails to compile. Calling a real function directly from
// Swift fails to link, which keeps every call on the lazy path.
//
// A library's function list is a macro taking three macros, one per kind of entry:
//   F(return type, name, (typed parameters), (argument names))  wrapper blocks_<name>
//   V(name, (typed parameters), (argument names))               the same, returning void
//   P(name)                     resolved only, for variadic functions wrapped by hand
// BLOCKS_LAZY_LIBRARY(lib, LIST, candidate file names...) then defines:
//   blocks_<lib>_available()     true once the library and every listed function resolved;
//                                check it before any wrapper (a wrapper would call NULL)
//   blocks_<lib>_library()       the table of function pointers, loaded once (pthread_once)
//                                per object file that inlines it: Swift may emit a wrapper
//                                into several, each then opens the same library (dlopen
//                                counts references) and repeats a few dlsym look-ups
//   blocks_<lib>_loads_from(c, n) whether the first of n candidate names c that opens has
//                                every function; for tests (a loaded library stays open)
// and BLOCKS_LAZY_WRAPPERS(LIST), with BLOCKS_LAZY_TABLE defined as blocks_<lib>_library(),
// defines one static inline wrapper per F and V entry.
#ifndef BLOCKS_LAZY_LOADING
#define BLOCKS_LAZY_LOADING
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define BLOCKS_LAZY_FIELD(name) __typeof__(name) *fn_##name;
#define BLOCKS_LAZY_FIELD_F(type, name, params, args) BLOCKS_LAZY_FIELD(name)
#define BLOCKS_LAZY_FIELD_V(name, params, args) BLOCKS_LAZY_FIELD(name)
#define BLOCKS_LAZY_RESOLVE(name) \
    table->fn_##name = (__typeof__(name) *)dlsym(handle, #name); complete = complete && table->fn_##name;
#define BLOCKS_LAZY_RESOLVE_F(type, name, params, args) BLOCKS_LAZY_RESOLVE(name)
#define BLOCKS_LAZY_RESOLVE_V(name, params, args) BLOCKS_LAZY_RESOLVE(name)
#define BLOCKS_LAZY_WRAP_F(type, name, params, args) \
    static inline type blocks_##name params { return BLOCKS_LAZY_TABLE->fn_##name args; }
#define BLOCKS_LAZY_WRAP_V(name, params, args) \
    static inline void blocks_##name params { BLOCKS_LAZY_TABLE->fn_##name args; }
#define BLOCKS_LAZY_NO_WRAP(name)

#define BLOCKS_LAZY_LIBRARY(lib, LIST, ...) \
    typedef struct { \
        bool available; \
        LIST(BLOCKS_LAZY_FIELD_F, BLOCKS_LAZY_FIELD_V, BLOCKS_LAZY_FIELD) \
    } blocks_##lib##_table; \
    static inline bool blocks_##lib##_load(blocks_##lib##_table *table, const char *const *candidates, size_t count) { \
        for (size_t index = 0; index < count; index++) { \
            void *handle = dlopen(candidates[index], RTLD_LAZY | RTLD_LOCAL); \
            if (!handle) continue; \
            bool complete = true; \
            LIST(BLOCKS_LAZY_RESOLVE_F, BLOCKS_LAZY_RESOLVE_V, BLOCKS_LAZY_RESOLVE) \
            if (complete) return table->available = true; \
            dlclose(handle); \
        } \
        return table->available = false; \
    } \
    static inline blocks_##lib##_table *blocks_##lib##_storage(void) { \
        static blocks_##lib##_table table; \
        return &table; \
    } \
    static inline void blocks_##lib##_load_once(void) { \
        static const char *const candidates[] = {__VA_ARGS__}; \
        blocks_##lib##_load(blocks_##lib##_storage(), candidates, sizeof candidates / sizeof candidates[0]); \
    } \
    static inline blocks_##lib##_table *blocks_##lib##_library(void) { \
        static pthread_once_t once = PTHREAD_ONCE_INIT; \
        pthread_once(&once, blocks_##lib##_load_once); \
        return blocks_##lib##_storage(); \
    } \
    static inline bool blocks_##lib##_available(void) { return blocks_##lib##_library()->available; } \
    static inline bool blocks_##lib##_loads_from(const char *const *candidates, size_t count) { \
        blocks_##lib##_table table; \
        return blocks_##lib##_load(&table, candidates, count); \
    }

#define BLOCKS_LAZY_WRAPPERS(LIST) LIST(BLOCKS_LAZY_WRAP_F, BLOCKS_LAZY_WRAP_V, BLOCKS_LAZY_NO_WRAP)
#endif
// ---- End of the lazy loading block. ----

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
BLOCKS_LAZY_LIBRARY(curl, BLOCKS_CURL_FUNCTIONS, "libcurl.4.dylib", "libcurl.dylib")
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
