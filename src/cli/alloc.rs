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

/// Hands the memory a finished stage freed back to the system (glibc only; elsewhere a
/// no-op), for [`sitemapgen::RunOptions::between_stages`]. glibc keeps freed memory for
/// reuse, but much of it is in the reading threads' arenas (the front matter's boxes), where
/// the main thread's next stages cannot reuse it: without this it stays in the peak.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}
