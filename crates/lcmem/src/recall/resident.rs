//! Keeping a long-lived searcher's memory bounded.
//!
//! The index is memory-mapped. Every page a query reads stays mapped into the
//! process, and the kernel maps the pages around each one it faults in too,
//! so a warm process that answers many different queries slowly comes to map
//! most of the term dictionaries and postings, hundreds of megabytes on a
//! large project, although it reads only a few of them again. These pages
//! are clean copies of the files, shared with the page cache: dropping them
//! from the process costs nothing but a cheap fault (from the page cache, not
//! the disk) when one is read again. So once the mapped file pages pass a
//! budget, the mappings of the index files are released.

use std::path::Path;

/// Mapped file pages a searcher may keep, in bytes.
const BUDGET: u64 = 128 * 1024 * 1024;

/// Releases the pages of the index in `dir` mapped into this process, if the
/// process maps more file pages than the budget allows.
#[cfg(target_os = "linux")]
pub(super) fn trim(dir: &Path) {
    use std::os::unix::ffi::OsStrExt;

    // statm: size resident shared …, in pages; `shared` counts file pages.
    let Ok(statm) = std::fs::read_to_string("/proc/self/statm") else { return };
    let shared_pages: u64 = statm.split_whitespace().nth(2).and_then(|n| n.parse().ok()).unwrap_or(0);
    // SAFETY: sysconf has no preconditions.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    if shared_pages.saturating_mul(page) <= BUDGET {
        return;
    }
    // The maps name files by their resolved paths.
    let Ok(dir) = std::fs::canonicalize(dir) else { return };
    let Ok(maps) = std::fs::read("/proc/self/maps") else { return };
    let mut prefix = dir.as_os_str().as_bytes().to_vec();
    prefix.push(b'/');
    let prefix = prefix.as_slice();
    for line in maps.split(|&b| b == b'\n') {
        // "start-end perms offset dev inode path"
        let Some(path_at) = line.windows(prefix.len()).position(|w| w == prefix) else { continue };
        let range = line[..path_at].split(|&b| b == b' ').next().unwrap_or_default();
        let Some((start, end)) = std::str::from_utf8(range).ok().and_then(|r| r.split_once('-')) else { continue };
        let (Ok(start), Ok(end)) = (usize::from_str_radix(start, 16), usize::from_str_radix(end, 16)) else {
            continue;
        };
        // SAFETY: the range is a whole mapping of an index file, mapped
        // read-only and shared: dropping its pages loses nothing, the next
        // read faults them in again from the file.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED) };
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn trim(_dir: &Path) {}
