// add_floor.c's program with Swift's start-up in front: the static Swift runtime and
// FoundationEssentials (what `blocks` links: not the rest of Foundation, which brings
// ICU), then the same C code as its whole work.
// Scripts/bench/run.py links it with add_floor.c compiled under `-Dmain=add_floor_main`.
import FoundationEssentials
import Glibc

@_silgen_name("add_floor_main")
func addFloorMain(_ count: Int32, _ arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32

_ = FileManager.default.currentDirectoryPath
exit(addFloorMain(CommandLine.argc, CommandLine.unsafeArgv))
