#ifndef BLOCKS_ARCHIVE_SHIM_H
#define BLOCKS_ARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <locale.h>

// The AE_IF* constants are casts to a macro type, which Swift does not import.
static const unsigned int blocks_ae_ifmt = AE_IFMT;
static const unsigned int blocks_ae_ifreg = AE_IFREG;
static const unsigned int blocks_ae_ifdir = AE_IFDIR;
static const unsigned int blocks_ae_iflnk = AE_IFLNK;

#endif
