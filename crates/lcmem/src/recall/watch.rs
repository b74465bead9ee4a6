//! Hearing which entries of the sessions folder changed, so that a warm
//! [`super::Searcher`] need not stat every session file before each answer.
//!
//! On Linux this is an inotify watch on the folder. The kernel queues an event
//! inside the very system call that changes an entry (a write, a truncate, a
//! rename, a `touch`), so once another process's write has returned, the next
//! [`Watch::drain`] reports the file. When the queue overflows, the folder
//! itself goes away, or anything fails, `drain` says the watch lost track and
//! the caller falls back to a full listing. Elsewhere there is no watch and
//! every answer lists the folder.

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
pub(super) use linux::Watch;

#[cfg(not(target_os = "linux"))]
pub(super) use other::Watch;

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
}
