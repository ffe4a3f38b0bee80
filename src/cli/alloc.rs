//! The one allocator decision, made by the binary for its whole process.

/// Makes the allocator give every large block back to the system as soon as it is freed
/// (glibc only; elsewhere a no-op). A process-wide setting: call it once, first thing in `main`.
///
/// glibc serves a block of 128 KiB or more with a mapping of its own, returned when freed,
/// but raises that threshold to the size of each such block freed (up to 32 MB): after the
/// first chunk of pages is freed, the run's largest vectors (a route, a lastmod, an entry a
/// URL) would come from the heap, where freeing them gives nothing back. Setting the
/// threshold keeps it where it starts.
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a malloc parameter; it has no preconditions.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}
