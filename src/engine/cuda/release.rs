//! The driver's files left to a child at the process' end, so that a run that opened a device
//! ends without waiting for the driver to free it.
//!
//! Closing the driver's last files frees the context, its memory and modules, and a process' exit
//! waits for that: 0.05 s after `cuInit` alone, 0.1 s after a context, on an H200 with persistence
//! mode on (BENCHMARKS.md, "Short runs"). A child forked at the end keeps the driver's files open
//! and closes every other (standard output and error among them, so that whoever reads the run's
//! output sees its end at once); the parent then ends at once, and the child ends when it does (a
//! pipe between them closes), freeing the device in the background.
//!
//! The child runs only what may run after `fork` in a process with threads: system calls, no
//! allocation, no lock. It is made by the `clone` system call as `fork` makes it, but without the
//! handlers registered by `pthread_atfork` (the C library's own, and any a library loaded since
//! registered), which may take locks that a thread still at work with the driver holds: a run
//! that ends while the device is still opening beside it (a short `-t N`) leaves the driver's
//! files too.

use std::ffi::c_void;

/// The child that holds the driver's files, and the parent's end of the pipe between them.
pub struct Holder {
    pub pid: i32,
    write_end: i32,
}

impl Holder {
    /// Ends the child now (the process does not end), and waits for it: its exit status.
    pub fn end(self) -> i32 {
        let mut status = 0;
        // SAFETY: the write end is this holder's; waitpid writes into `status`.
        unsafe {
            libc::close(self.write_end);
            libc::waitpid(self.pid, &mut status, 0);
        }
        status
    }
}

/// Leaves the driver's files to a child (see the module's comment), which ends when the process
/// does (or at [`Holder::end`]): a process that then ends at once, through `_exit`, leaves the
/// driver's teardown to it. `None` where fork fails.
pub fn leave_driver_to_child() -> Option<Holder> {
    let mut ends = [0i32; 2];
    // SAFETY: pipe2 writes two descriptors into `ends`.
    if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return None;
    }
    let [read_end, write_end] = ends;
    // SAFETY: the child runs only `keep_driver_files`, which makes system calls and ends the
    // child; the parent only closes the pipe's read end.
    match unsafe { fork_bare() } {
        0 => unsafe { keep_driver_files(read_end, write_end) },
        -1 => {
            // SAFETY: both descriptors are this function's.
            unsafe {
                libc::close(read_end);
                libc::close(write_end);
            }
            None
        }
        pid => {
            // The write end stays open until the process ends (or the holder ends the child):
            // then the child's read returns.
            // SAFETY: the read end is this function's.
            unsafe { libc::close(read_end) };
            Some(Holder { pid, write_end })
        }
    }
}

/// `fork` as the bare system call: a child with a copy of the memory and of the descriptors,
/// whose end the parent is told of (SIGCHLD); no `pthread_atfork` handler runs, in either process.
///
/// # Safety
/// The child may only make system calls (the C library's state is not made fit for it).
unsafe fn fork_bare() -> libc::pid_t {
    // SAFETY: clone with SIGCHLD alone and no new stack is fork's system call: the child runs on a
    // copy of this stack.
    unsafe {
        libc::syscall(libc::SYS_clone, libc::SIGCHLD as libc::c_long, 0usize, 0usize, 0usize, 0usize)
            as libc::pid_t
    }
}

/// The child: closes every descriptor but `read_end` and the driver's (`/dev/nvidia*`), the pipe's
/// `write_end` first (where `/proc` cannot say what a descriptor is, the rest stay open), waits
/// until the parent ends (its end of the pipe closes), and ends; its exit closes the driver's
/// files.
///
/// # Safety
/// Only in the child of a `fork`, with the two ends of a pipe made just before it.
unsafe fn keep_driver_files(read_end: i32, write_end: i32) -> ! {
    // SAFETY: signal, getrlimit, readlink, close, read and _exit are system calls, safe after
    // fork; the buffers are on this stack.
    unsafe {
        // The run's handlers are the parent's business: a signal now ends the child.
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT, libc::SIGPIPE] {
            libc::signal(sig, libc::SIG_DFL);
        }
        libc::close(write_end);
        let mut lim: libc::rlimit = std::mem::zeroed();
        let max = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) == 0 {
            lim.rlim_cur.min(1 << 16) as i32
        } else {
            1024
        };
        let mut path = [0u8; 32];
        let mut target = [0u8; 64];
        for fd in 0..max {
            if fd == read_end {
                continue;
            }
            fd_path(fd, &mut path);
            let n = libc::readlink(path.as_ptr().cast(), target.as_mut_ptr().cast(), target.len());
            if n >= 0 && !target[..n as usize].starts_with(b"/dev/nvidia") {
                libc::close(fd);
            }
        }
        let mut byte = 0u8;
        while libc::read(read_end, (&mut byte as *mut u8).cast::<c_void>(), 1) < 0
            && *libc::__errno_location() == libc::EINTR
        {}
        libc::_exit(0)
    }
}

/// Writes `/proc/self/fd/FD` and a terminating NUL into `out`, without allocating.
fn fd_path(fd: i32, out: &mut [u8; 32]) {
    const PREFIX: &[u8] = b"/proc/self/fd/";
    out[..PREFIX.len()].copy_from_slice(PREFIX);
    let mut digits = [0u8; 10];
    let (mut n, mut len) = (fd.unsigned_abs(), 0);
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for (i, &d) in digits[..len].iter().rev().enumerate() {
        out[PREFIX.len() + i] = d;
    }
    out[PREFIX.len() + len] = 0;
}

#[cfg(test)]
mod tests {
    use super::{fd_path, leave_driver_to_child};

    /// The child keeps no descriptor but its end of the pipe (this process has no driver files):
    /// not the output, whose reader would otherwise wait for it. It ends when asked.
    #[test]
    fn the_child_keeps_only_its_pipe_and_ends_with_it() {
        let child = leave_driver_to_child().expect("forked");
        let fds = format!("/proc/{}/fd", child.pid);
        let open = || std::fs::read_dir(&fds).map(|d| d.count()).unwrap_or(usize::MAX);
        let start = std::time::Instant::now();
        while open() != 1 && start.elapsed().as_secs() < 30 {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(open(), 1, "the child's descriptors: {:?}", std::fs::read_dir(&fds).map(|d| d.count()));
        let status = child.end();
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "status {status}");
    }

    #[test]
    fn descriptor_paths_are_spelled_out_with_their_nul() {
        let mut out = [0xffu8; 32];
        for (fd, want) in [(0, "/proc/self/fd/0"), (7, "/proc/self/fd/7"), (1234, "/proc/self/fd/1234")] {
            fd_path(fd, &mut out);
            let end = out.iter().position(|&b| b == 0).expect("a NUL");
            assert_eq!(&out[..end], want.as_bytes());
        }
        fd_path(i32::MAX, &mut out);
        assert_eq!(&out[..25], b"/proc/self/fd/2147483647\0");
    }
}
