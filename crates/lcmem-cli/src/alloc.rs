//! The process's allocator: the system's, except that a large block (a
//! model's weight matrix, a batch's activations) is marked for transparent
//! huge pages. Most Linux systems hand out huge pages only where asked
//! (`/sys/kernel/mm/transparent_hugepage/enabled` = `madvise`); without the
//! mark, copying the embedding model's 90 MB of weights out of its file
//! faults in 22,000 small pages one by one, which was a third of what a fresh
//! `lcmem recall` with the semantic lane cost (docs/benchmarks.md).

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks at least this large are marked: a few huge pages' worth, so that
/// small allocations never pay for the call.
const LARGE: usize = 2 << 20;

pub struct Allocator;

#[cfg(target_os = "linux")]
fn mark(ptr: *mut u8, size: usize) {
    const PAGE: usize = 4096;
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + size) & !(PAGE - 1);
    if end > start {
        // SAFETY: [start, end) lies inside the block just allocated, which
        // this process owns; MADV_HUGEPAGE only changes how the kernel backs
        // those pages, never their contents, and a refusal changes nothing.
        #[allow(unsafe_code)]
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE)
        };
    }
}

#[cfg(not(target_os = "linux"))]
fn mark(_ptr: *mut u8, _size: usize) {}

// SAFETY: every call is passed on to the system allocator unchanged; `mark`
// only advises the kernel about pages of a block the call returned.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if layout.size() >= LARGE && !ptr.is_null() {
            mark(ptr, layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if layout.size() >= LARGE && !ptr.is_null() {
            mark(ptr, layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new_size >= LARGE && !new.is_null() {
            mark(new, new_size);
        }
        new
    }
}
