// The static adlang's unwinder finds a frame's unwind information (FDE) through the binary
// search table of .eh_frame_hdr, as in a dynamic link, instead of through the frames that
// crtbeginT.o registers (docs/performance.md Sec. 7, "Exceptions").
//
// With -static, GCC links crtbeginT.o, whose start-up registers the whole .eh_frame with
// libgcc's __register_frame_info, and does not ask the linker for .eh_frame_hdr. libgcc's
// _Unwind_Find_FDE searches the registered objects first (a locked binary search over the FDEs,
// decoding each probe's encoding: about 1,400 instructions a frame), and only then the
// PT_GNU_EH_FRAME header of each loaded object through dl_iterate_phdr (about 500). The
// executable is linked with --eh-frame-hdr and with these two functions in place of libgcc's
// (--wrap, cli/CMakeLists.txt), so nothing is registered and every look-up takes the header.
// The exit code's __deregister_frame_info would abort on a frame never registered, so it too
// is a no-op. startup_libraries_test.sh checks the header and the wrapping.

extern "C" {

// crtbeginT.o's frame_dummy: registers [begin, the zero terminator) for the unwinder.
void __wrap___register_frame_info(const void* /*begin*/, void* /*object*/) {}

// crtbeginT.o's __do_global_dtors_aux: the object registered for begin, none here.
void* __wrap___deregister_frame_info(const void* /*begin*/) {
  return nullptr;
}

}  // extern "C"
