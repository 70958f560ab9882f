// Lazy loading of a C library, shared by the shims of BlocksCurl, BlocksArchive, BlocksZlib,
// BlocksCrypto and BlocksSQLite (each includes this file; no target builds it on its own).
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
//                                per process: Swift may emit a wrapper into several object
//                                files, so the table and its once-flag are weak globals,
//                                which the linker merges into one
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
    __attribute__((weak)) blocks_##lib##_table blocks_##lib##_shared_table = {0}; \
    __attribute__((weak)) pthread_once_t blocks_##lib##_shared_once = PTHREAD_ONCE_INIT; \
    static inline blocks_##lib##_table *blocks_##lib##_storage(void) { return &blocks_##lib##_shared_table; } \
    static inline void blocks_##lib##_load_once(void) { \
        static const char *const candidates[] = {__VA_ARGS__}; \
        blocks_##lib##_load(blocks_##lib##_storage(), candidates, sizeof candidates / sizeof candidates[0]); \
    } \
    static inline blocks_##lib##_table *blocks_##lib##_library(void) { \
        pthread_once(&blocks_##lib##_shared_once, blocks_##lib##_load_once); \
        return blocks_##lib##_storage(); \
    } \
    static inline bool blocks_##lib##_available(void) { return blocks_##lib##_library()->available; } \
    static inline bool blocks_##lib##_loads_from(const char *const *candidates, size_t count) { \
        blocks_##lib##_table table; \
        return blocks_##lib##_load(&table, candidates, count); \
    }

#define BLOCKS_LAZY_WRAPPERS(LIST) LIST(BLOCKS_LAZY_WRAP_F, BLOCKS_LAZY_WRAP_V, BLOCKS_LAZY_NO_WRAP)
#endif
