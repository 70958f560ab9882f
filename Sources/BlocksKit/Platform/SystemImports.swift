// The one place that says which system modules the library is built on. Every other file
// sees them through these re-exports, so no file outside `Platform/` needs to know whether
// it is on Linux or macOS.
//
// FoundationEssentials is the smaller, faster-loading part of Foundation; where the
// toolchain does not ship it as a separate module (macOS), Foundation itself stands in.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
