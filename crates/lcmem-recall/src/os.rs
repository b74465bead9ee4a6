//! What recall asks of the operating system, all of it in this one module
//! (and every `unsafe` block of recall with it). Both are for long-lived
//! searchers only, which ask for them ([`super::Searcher::watching`],
//! [`super::Searcher::with_page_budget`]); a one-off recall needs neither.
//!
//! **Watching the sessions folder** ([`Watch`]). Hearing which entries of
//! the sessions folder changed, so that a warm searcher need not stat every
//! session file before each answer. On Linux this is an inotify watch on the
//! folder. The kernel queues an event inside the very system call that
//! changes an entry (a write, a truncate, a rename, a `touch`), so once
//! another process's write has returned, the next [`Watch::drain`] reports
//! the file. When the queue overflows, the folder itself goes away, or
//! anything fails, `drain` says the watch lost track and the caller falls
//! back to a full listing. Elsewhere there is no watch and every answer lists
//! the folder.
//!
//! **Keeping the mapped index pages within a budget** ([`trim`]). The index is
//! memory-mapped. Every page a query reads stays mapped into the process, and
//! the kernel maps the pages around each one it faults in too, so a warm
//! process that answers many different queries slowly comes to map most of
//! the term dictionaries and postings, hundreds of megabytes on a large
//! project, although it reads only a few of them again. These pages are clean
//! copies of the files, shared with the page cache: dropping them from the
//! process costs nothing but a cheap fault (from the page cache, not the disk)
//! when one is read again. So once the mapped file pages pass a budget, the
//! mappings of the index files are released. Elsewhere than on Linux this
//! does nothing.
//!
//! **Mapping the embedding model's weights** ([`with_mapped`]). The semantic
//! lane's model file is mapped rather than read into a buffer: each tensor is
//! copied out of the mapping once, so a fresh process neither reads the file
//! twice over nor holds it twice in memory.

use std::ffi::OsString;

/// What changed since the previous drain.
pub(super) enum Changes {
    /// The names of the entries that changed (possibly repeated).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Names(Vec<OsString>),
    /// The watch can no longer say: list everything again.
    Lost,
}

#[cfg(target_os = "linux")]
pub(super) use linux::{Watch, trim};

#[cfg(not(target_os = "linux"))]
pub(super) use other::{Watch, trim};

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{CString, OsStr, OsString};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::Changes;

    /// Every change that can alter a session file's size or modification
    /// time, or its presence: writes, `touch`, creation, removal, renames.
    const MASK: u32 = libc::IN_MODIFY
        | libc::IN_ATTRIB
        | libc::IN_CLOSE_WRITE
        | libc::IN_CREATE
        | libc::IN_DELETE
        | libc::IN_MOVED_FROM
        | libc::IN_MOVED_TO
        | libc::IN_DELETE_SELF
        | libc::IN_MOVE_SELF
        | libc::IN_ONLYDIR;

    /// Events after which the watch no longer describes the folder.
    const LOST: u32 =
        libc::IN_Q_OVERFLOW | libc::IN_IGNORED | libc::IN_DELETE_SELF | libc::IN_MOVE_SELF | libc::IN_UNMOUNT;

    /// An inotify instance watching one folder.
    pub struct Watch {
        fd: OwnedFd,
    }

    impl Watch {
        /// Starts watching `dir`. `None` when it cannot be watched (no such
        /// folder, the per-user watch limit reached): the caller lists.
        pub fn new(dir: &Path) -> Option<Watch> {
            let path = CString::new(dir.as_os_str().as_bytes()).ok()?;
            // SAFETY: plain system calls; the descriptor is owned at once.
            let raw = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
            if raw < 0 {
                return None;
            }
            // SAFETY: `raw` is a fresh descriptor nothing else owns.
            let fd = unsafe { OwnedFd::from_raw_fd(raw) };
            // SAFETY: `path` is a valid NUL-terminated string for the call's duration.
            let wd = unsafe { libc::inotify_add_watch(fd.as_raw_fd(), path.as_ptr(), MASK) };
            (wd >= 0).then_some(Watch { fd })
        }

        /// The entries that changed since the last drain, without waiting.
        pub fn drain(&mut self) -> Changes {
            const HEADER: usize = size_of::<libc::inotify_event>();
            // u64s keep the buffer aligned for the event headers.
            let mut buf = vec![0u64; 8192];
            let mut names = Vec::new();
            loop {
                let bytes = buf.len() * 8;
                // SAFETY: the buffer is valid for `bytes` bytes.
                let n = unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), bytes) };
                if n < 0 {
                    return match std::io::Error::last_os_error().kind() {
                        std::io::ErrorKind::WouldBlock => Changes::Names(names),
                        std::io::ErrorKind::Interrupted => continue,
                        _ => Changes::Lost,
                    };
                }
                let n = n as usize;
                if n == 0 {
                    return Changes::Lost;
                }
                // SAFETY: the kernel wrote `n` bytes into the buffer.
                let data = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast::<u8>(), n) };
                let mut at = 0;
                while at + HEADER <= n {
                    // SAFETY: a whole header lies at `at`; read_unaligned needs no alignment.
                    let event: libc::inotify_event = unsafe { std::ptr::read_unaligned(data[at..].as_ptr().cast()) };
                    if event.mask & LOST != 0 {
                        return Changes::Lost;
                    }
                    let start = at + HEADER;
                    let end = (start + event.len as usize).min(n);
                    let name = &data[start..end];
                    let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
                    if !name.is_empty() {
                        names.push(OsString::from(OsStr::from_bytes(name)));
                    }
                    at = start + event.len as usize;
                }
            }
        }
    }

    /// Releases the pages of the indexes in `dirs` mapped into this process,
    /// if the process maps more file pages than `budget` (bytes) allows.
    pub fn trim(dirs: &[&Path], budget: u64) {
        // statm: size resident shared …, in pages; `shared` counts file pages.
        let Ok(statm) = std::fs::read_to_string("/proc/self/statm") else { return };
        let shared_pages: u64 = statm.split_whitespace().nth(2).and_then(|n| n.parse().ok()).unwrap_or(0);
        // SAFETY: sysconf has no preconditions.
        let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
        if shared_pages.saturating_mul(page) <= budget {
            return;
        }
        // The maps name files by their resolved paths.
        let prefixes: Vec<Vec<u8>> = dirs
            .iter()
            .filter_map(|dir| std::fs::canonicalize(dir).ok())
            .map(|dir| {
                let mut prefix = dir.as_os_str().as_bytes().to_vec();
                prefix.push(b'/');
                prefix
            })
            .collect();
        let Ok(maps) = std::fs::read("/proc/self/maps") else { return };
        for line in maps.split(|&b| b == b'\n') {
            // "start-end perms offset dev inode path"
            let found = prefixes.iter().find_map(|p| line.windows(p.len()).position(|w| w == p.as_slice()));
            let Some(path_at) = found else { continue };
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
}

/// Calls `read` with the bytes of the file at `path`, mapped into memory
/// with its pages read in at once (one pass of the kernel over the page
/// cache, not a fault per page as they are touched) and unmapped when `read`
/// returns. Elsewhere than on Linux the file is read into a buffer.
pub(super) fn with_mapped<R>(path: &std::path::Path, read: impl FnOnce(&[u8]) -> R) -> std::io::Result<R> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let file = std::fs::File::open(path)?;
        let len = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
        if len == 0 {
            return Ok(read(&[]));
        }
        // SAFETY: a private, read-only mapping of a whole file that stays open
        // while it is mapped. The bytes are only read, and only inside `read`;
        // the mapping is removed before this returns. The file is a model
        // folder's copy in the store root or one the user named; models are
        // replaced by installing a new folder, never rewritten in place (a
        // file truncated meanwhile would fault).
        let at = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_POPULATE,
                file.as_raw_fd(),
                0,
            )
        };
        if at == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `at` is a mapping of `len` readable bytes, alive until the munmap below.
        let bytes = unsafe { std::slice::from_raw_parts(at.cast::<u8>(), len) };
        let result = read(bytes);
        // SAFETY: the mapping made above; nothing borrows `bytes` any more.
        unsafe { libc::munmap(at, len) };
        Ok(result)
    }
    #[cfg(not(target_os = "linux"))]
    {
        Ok(read(&std::fs::read(path)?))
    }
}

#[cfg(not(target_os = "linux"))]
mod other {
    use std::path::Path;

    use super::Changes;

    /// No watch on this system: every answer lists the folder.
    pub struct Watch;

    impl Watch {
        pub fn new(_dir: &Path) -> Option<Watch> {
            None
        }

        pub fn drain(&mut self) -> Changes {
            Changes::Lost
        }
    }

    /// Nothing to release: no page trimming on this system.
    pub fn trim(_dirs: &[&Path], _budget: u64) {}
}
