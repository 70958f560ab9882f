// A floor under `blocks add` of a block with dependencies: about the least a program can
// do on this machine to get the same blocks into a folder with the same libraries.
//
// It fetches rounds of URLs, each round's transfers in parallel over one libcurl multi
// handle that keeps its connections, reads every `.tar.gz` it fetched with libarchive
// (loaded on a second thread while the first round runs, as `blocks` does), and writes
// each regular file into OUT through a temporary file and a rename. It checks nothing,
// parses no JSON, keeps no cache, lock or bases, and stops at the first failure.
//
// usage: add_floor OUT URL... [-- URL...]...    (FLOOR_HEADER="Name: value" is sent too)
//
// Scripts/bench/run.py builds it with `cc` and times it beside `curl --parallel` and
// `blocks add`, so the ratio the goal asks for can be read against what is possible.
#include <curl/curl.h>
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { maximumTransfers = 256 };

typedef struct {
    char *bytes;
    size_t count;
} Body;

// The libarchive functions used, each typed like its declaration in <archive.h>, looked
// up once by the loading thread.
#define ARCHIVE_FUNCTIONS(X) X(archive_read_new) X(archive_read_support_filter_gzip) \
    X(archive_read_support_format_tar) X(archive_read_open_memory) X(archive_read_next_header) \
    X(archive_entry_filetype) X(archive_entry_size) X(archive_read_data) X(archive_read_free)
#define ARCHIVE_POINTER(name) static __typeof__(&name) pointer_##name;
ARCHIVE_FUNCTIONS(ARCHIVE_POINTER)
#define ARCHIVE(name) (pointer_##name)

static int libarchiveLoaded;

static void *loadLibarchive(void *unused) {
    (void)unused;
    void *library = dlopen("libarchive.so.13", RTLD_NOW);
    if (!library) return NULL;
    libarchiveLoaded = 1;
#define ARCHIVE_RESOLVE(name) \
    pointer_##name = (__typeof__(&name))dlsym(library, #name); \
    libarchiveLoaded = libarchiveLoaded && pointer_##name;
    ARCHIVE_FUNCTIONS(ARCHIVE_RESOLVE)
    return NULL;
}

static size_t keep(char *data, size_t size, size_t items, void *context) {
    Body *body = context;
    size_t count = size * items;
    char *grown = realloc(body->bytes, body->count + count);
    if (!grown) return 0;
    memcpy(grown + body->count, data, count);
    body->bytes = grown;
    body->count += count;
    return count;
}

static void fail(const char *what) {
    fprintf(stderr, "add_floor: %s\n", what);
    exit(1);
}

// Writes each regular file of one archive as OUT/N, N counting across archives.
static void unpack(const Body *archive, const char *out, int *written) {
    struct archive *reader = ARCHIVE(archive_read_new)();
    ARCHIVE(archive_read_support_filter_gzip)(reader);
    ARCHIVE(archive_read_support_format_tar)(reader);
    if (ARCHIVE(archive_read_open_memory)(reader, archive->bytes, archive->count) != ARCHIVE_OK) fail("unreadable archive");
    struct archive_entry *entry;
    while (ARCHIVE(archive_read_next_header)(reader, &entry) == ARCHIVE_OK) {
        if (ARCHIVE(archive_entry_filetype)(entry) != AE_IFREG) continue;
        size_t size = (size_t)ARCHIVE(archive_entry_size)(entry);
        char *data = malloc(size + 1);
        if (!data || ARCHIVE(archive_read_data)(reader, data, size) != (ssize_t)size) fail("short archive entry");
        char path[4096], temporary[4200];
        snprintf(path, sizeof path, "%s/%d", out, (*written)++);
        snprintf(temporary, sizeof temporary, "%s.partial", path);
        int file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (file < 0 || write(file, data, size) != (ssize_t)size || close(file) != 0 || rename(temporary, path) != 0) fail("cannot write");
        free(data);
    }
    ARCHIVE(archive_read_free)(reader);
}

int main(int argc, char **argv) {
    if (argc < 3) fail("usage: add_floor OUT URL... [-- URL...]...");
    const char *out = argv[1];
    pthread_t loader;
    if (pthread_create(&loader, NULL, loadLibarchive, NULL) != 0) fail("no thread");
    int loaded = 0;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 8L);
    struct curl_slist *headers = getenv("FLOOR_HEADER") ? curl_slist_append(NULL, getenv("FLOOR_HEADER")) : NULL;
    static Body bodies[maximumTransfers];
    int isArchive[maximumTransfers] = {0};
    int transfers = 0, written = 0;
    for (int argument = 2; argument < argc;) {
        int first = transfers;
        for (; argument < argc && strcmp(argv[argument], "--") != 0; argument++, transfers++) {
            if (transfers == maximumTransfers) fail("too many URLs");
            CURL *transfer = curl_easy_init();
            curl_easy_setopt(transfer, CURLOPT_URL, argv[argument]);
            curl_easy_setopt(transfer, CURLOPT_HTTPHEADER, headers);
            curl_easy_setopt(transfer, CURLOPT_FAILONERROR, 1L);
            curl_easy_setopt(transfer, CURLOPT_TIMEOUT_MS, 10000L);
            curl_easy_setopt(transfer, CURLOPT_WRITEFUNCTION, keep);
            curl_easy_setopt(transfer, CURLOPT_WRITEDATA, &bodies[transfers]);
            isArchive[transfers] = strstr(argv[argument], ".tar.gz") != NULL;
            curl_multi_add_handle(multi, transfer);
        }
        argument++;  // past "--"
        // Bounded: each transfer times out after 10 s, and the loop after 100,000 turns.
        for (int running = 1, turns = 0; running; turns++) {
            if (curl_multi_perform(multi, &running) != CURLM_OK || turns > 100000) fail("transfer loop");
            if (running) curl_multi_poll(multi, NULL, 0, 100, NULL);
        }
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg == CURLMSG_DONE && message->data.result != CURLE_OK) fail(curl_easy_strerror(message->data.result));
            curl_multi_remove_handle(multi, message->easy_handle);
            curl_easy_cleanup(message->easy_handle);
        }
        for (int index = first; index < transfers; index++) {
            if (!isArchive[index]) continue;
            if (!loaded) {
                pthread_join(loader, NULL);
                if (!libarchiveLoaded) fail("libarchive.so.13 did not load");
                loaded = 1;
            }
            unpack(&bodies[index], out, &written);
        }
    }
    printf("%d files\n", written);
    return 0;
}
