//! Opening and reading files that a user or a checkout controls: the output folder's pages,
//! sitemaps and robots.txt, `--config`, site configs, content files, git's own files.
//!
//! Every such file is opened without blocking and read with a bound:
//! - only a regular file is read: a FIFO (whose `open` would wait for a writer), a device
//!   (`/dev/zero` never ends), a socket or a folder is refused, naming what it is;
//! - what is plainly not a file is not even opened (a device may act on `open`); the open
//!   itself cannot block: it asks for `O_NONBLOCK`, and what the file is is checked again on
//!   the open file (`fstat`), so a file swapped for a FIFO after the first look is caught;
//! - with [`Folder`], a symlink is followed only when it lands inside that folder (the output
//!   folder for the audit, the checkout for git's files): the resolved path of the open file
//!   is checked, links in parent folders included;
//! - [`read`] and friends stop one byte past a limit and say the file is too large, never
//!   taking more memory than the limit.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// What a path names when it is not a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A folder.
    Folder,
    /// A named pipe: opening it for reading waits for a writer.
    Fifo,
    /// A Unix socket.
    Socket,
    /// A character device (`/dev/zero`, a terminal).
    CharDevice,
    /// A block device (a disk).
    BlockDevice,
    /// Anything else the system has.
    Other,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Folder => "a folder",
            FileKind::Fifo => "a FIFO",
            FileKind::Socket => "a socket",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Other => "not a file",
        })
    }
}

/// Why a file was not opened or read. Its message is about the file; callers add its path
/// (`Error::io(path, e.into())`).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// What the system said (not found, permission denied, ...).
    #[error(transparent)]
    Io(#[from] io::Error),
    /// Not a regular file.
    #[error("not a regular file ({0})")]
    NotAFile(FileKind),
    /// A symlink (the file's, or a folder's above it) that leads outside the folder the file
    /// belongs to.
    #[error("a link that leads outside {}: not followed", .0.display())]
    Outside(PathBuf),
    /// Larger than the most read.
    #[error("larger than {} (the most read)", Size(*.0))]
    TooLarge(u64),
}

impl ReadError {
    /// True when the file (or a folder above it) does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> io::Error {
        let kind = match &e {
            ReadError::Io(e) => return io::Error::new(e.kind(), e.to_string()),
            ReadError::NotAFile(FileKind::Folder) => io::ErrorKind::IsADirectory,
            ReadError::NotAFile(_) => io::ErrorKind::InvalidInput,
            ReadError::Outside(_) => io::ErrorKind::PermissionDenied,
            ReadError::TooLarge(_) => io::ErrorKind::FileTooLarge,
        };
        io::Error::new(kind, e.to_string())
    }
}

/// A byte count as people read it: `16 MiB`, `256 KiB`, `100 bytes`.
#[derive(Clone, Copy, Debug)]
pub struct Size(pub u64);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0;
        if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
            write!(f, "{} MiB", n >> 20)
        } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
            write!(f, "{} KiB", n >> 10)
        } else {
            write!(f, "{n} bytes")
        }
    }
}

/// A folder whose files may be reached through symlinks only when the links stay inside it.
#[derive(Clone, Debug)]
pub struct Folder {
    /// The folder with every link in its own path resolved.
    real: PathBuf,
}

impl Folder {
    /// The folder at `dir` (which must exist: its own links are resolved once, here).
    pub fn new(dir: &Path) -> io::Result<Folder> {
        Ok(Folder {
            real: dir.canonicalize()?,
        })
    }

    /// The folder's path with its links resolved.
    pub fn path(&self) -> &Path {
        &self.real
    }
}

/// Opens `path` for reading without blocking, when it is a regular file.
pub fn open(path: &Path) -> Result<File, ReadError> {
    // Some devices act when opened (a watchdog arms, a serial line resets its board): what
    // is plainly not a file is not opened at all. What stands there may still change before
    // the open, hence the check of the open file below.
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        return Err(ReadError::NotAFile(kind_of(&meta.file_type())));
    }
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta.file_type())));
    }
    regular_blocking(&file)?;
    Ok(file)
}

/// Opens a file the scan has just listed as a regular file (or a link to one), as a page is
/// read: like [`open`] without its first look by path (the scan's listing was that look)
/// and without making reads blocking yet, a regular file on a local file system ignores
/// `O_NONBLOCK`. Two system calls fewer a page; [`read_more`] reads it, and makes it
/// blocking should a read answer "try again" (FUSE, NFS). Returns the file and its size.
pub fn open_listed(path: &Path) -> Result<(File, u64), ReadError> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(&meta.file_type())));
    }
    Ok((file, meta.len()))
}

/// A folder held open, so that the files the scan listed in it are opened by name alone:
/// the system then looks up one name a file, not every folder of its path again.
#[derive(Debug)]
pub struct OpenDir {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

impl OpenDir {
    /// Opens the folder at `path` (only to open files in it: nothing of it is read).
    pub fn open(path: &Path) -> io::Result<OpenDir> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let dir = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_PATH | libc::O_DIRECTORY)
                .open(path)?;
            Ok(OpenDir { fd: dir.into() })
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            Err(io::Error::from(io::ErrorKind::Unsupported))
        }
    }
}

/// [`open_listed`] for the file `name` in the open folder `dir`; `path` is the same file's
/// whole path. Any failure is left to [`open_listed`] on `path`, so a file that cannot be
/// opened by name is refused, or opened, exactly as it would be by path.
pub fn open_listed_at(dir: &OpenDir, name: &str, path: &Path) -> Result<(File, u64), ReadError> {
    #[cfg(unix)]
    {
        use std::os::fd::{AsRawFd, FromRawFd};
        if let Ok(cname) = std::ffi::CString::new(name) {
            let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC;
            // SAFETY: `dir.fd` is an open descriptor for the call's duration and `cname` a
            // NUL-terminated string; a descriptor returned is owned by nothing else.
            let fd = unsafe { libc::openat(dir.fd.as_raw_fd(), cname.as_ptr(), flags) };
            if fd >= 0 {
                // SAFETY: `fd` was just opened and is owned by this `File` alone.
                let file = unsafe { File::from_raw_fd(fd) };
                if let Ok(meta) = file.metadata()
                    && meta.is_file()
                {
                    return Ok((file, meta.len()));
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (dir, name);
    open_listed(path)
}

/// Reads up to `want` more bytes of a file from [`open_listed`] onto `buf` (which holds the
/// file from its start); true at the end of the file. `size` is the file's size when opened:
/// reading stops there without asking again for the end (one `read` a page, not two), as
/// if the file were read a moment earlier. A size of 0 (some file systems' "unknown") reads
/// to the end.
pub fn read_more(file: &mut File, size: u64, buf: &mut Vec<u8>, want: usize) -> io::Result<bool> {
    let end = buf.len().saturating_add(want);
    loop {
        let left = match size {
            0 => u64::MAX,
            n => n.saturating_sub(buf.len() as u64),
        };
        let ask = (end.saturating_sub(buf.len()) as u64).min(left);
        // `read_to_end` reads into the vector's spare room without zeroing it first, and a
        // spent `take` answers without a system call. Bytes read before a refusal stay.
        match (&mut *file).take(ask).read_to_end(buf) {
            Ok(got) => return Ok((got as u64) < ask || ask == left),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => regular_blocking(file)?,
            Err(e) => return Err(e),
        }
    }
}

/// Opens `path` like [`open`], and only when the file it names (links resolved) lies inside
/// `folder`.
pub fn open_in(path: &Path, folder: &Folder) -> Result<File, ReadError> {
    let file = open(path)?;
    let real = resolved(&file, path)?;
    if !real.starts_with(&folder.real) {
        return Err(ReadError::Outside(folder.real.clone()));
    }
    Ok(file)
}

/// Reads the regular file at `path` whole, when it holds at most `limit` bytes.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_all(open(path)?, limit)
}

/// [`read`] for a file that must lie inside `folder` (see [`open_in`]).
pub fn read_in(path: &Path, folder: &Folder, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_all(open_in(path, folder)?, limit)
}

/// [`read`] as UTF-8 text (invalid UTF-8 is an `InvalidData` error, as `fs::read_to_string`
/// gives).
pub fn read_string(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read(path, limit)?).map_err(|_| {
        ReadError::Io(io::Error::new(
            io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// [`read_string`] with the library's error, naming `path`.
pub fn read_text(path: &Path, limit: u64) -> crate::vocab::error::Result<String> {
    read_string(path, limit).map_err(|e| crate::vocab::error::Error::io(path, e.into()))
}

/// Reads all of `file` when it holds at most `limit` bytes: one byte past the limit tells a
/// larger file, whatever its size said when it was opened.
pub fn read_all(file: File, limit: u64) -> Result<Vec<u8>, ReadError> {
    let hint = file.metadata().map(|m| m.len()).unwrap_or(0).min(limit);
    let mut bytes = Vec::with_capacity(hint as usize + 1);
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(bytes)
}

/// What stands at `path` (links followed) when it is there and not a regular file.
pub fn kind(path: &Path) -> Option<FileKind> {
    let meta = std::fs::metadata(path).ok()?;
    (!meta.is_file()).then(|| kind_of(&meta.file_type()))
}

/// What a file type is, when not a regular file.
fn kind_of(ft: &std::fs::FileType) -> FileKind {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return FileKind::Fifo;
        }
        if ft.is_socket() {
            return FileKind::Socket;
        }
        if ft.is_char_device() {
            return FileKind::CharDevice;
        }
        if ft.is_block_device() {
            return FileKind::BlockDevice;
        }
    }
    if ft.is_dir() {
        FileKind::Folder
    } else {
        FileKind::Other
    }
}

/// Opens for reading with `O_NONBLOCK` (a FIFO without a writer opens at once instead of
/// waiting) and `O_NOCTTY` (a terminal never becomes ours).
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> Result<File, ReadError> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
    {
        Ok(file) => Ok(file),
        // A socket cannot be opened at all: say what it is rather than "no such device".
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => Err(ReadError::NotAFile(kind_of(&m.file_type()))),
            _ => Err(ReadError::Io(e)),
        },
        Err(e) => Err(ReadError::Io(e)),
    }
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> Result<File, ReadError> {
    Ok(File::open(path)?)
}

/// Makes reads of a regular file opened with `O_NONBLOCK` block as usual: a file system
/// (FUSE, NFS) may otherwise answer "try again".
#[cfg(unix)]
fn regular_blocking(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function borrows, reading and setting status flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(unix))]
fn regular_blocking(_file: &File) -> io::Result<()> {
    Ok(())
}

/// The path of the open file with every link resolved: from the open descriptor where the
/// system says it (Linux: one `readlink`, and it is the file actually opened), else by
/// resolving `path` again.
fn resolved(file: &File, path: &Path) -> io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let fd = format!("/proc/self/fd/{}", file.as_raw_fd());
        if let Ok(real) = std::fs::read_link(fd)
            && real.is_absolute()
        {
            return Ok(real);
        }
    }
    let _ = file;
    path.canonicalize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::time::{Duration, Instant};

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    }

    #[test]
    fn regular_files_are_read_whole_within_the_limit() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("a.txt");
        std::fs::write(&p, "hello").unwrap();
        assert_eq!(read(&p, 5).unwrap(), b"hello");
        assert_eq!(read_string(&p, 100).unwrap(), "hello");
        assert!(matches!(read(&p, 4), Err(ReadError::TooLarge(4))));
        let missing = read(&d.path().join("none"), 5).unwrap_err();
        assert!(missing.is_not_found(), "{missing}");
        std::fs::write(&p, b"\xff").unwrap();
        let e = read_string(&p, 5).unwrap_err();
        assert!(matches!(&e, ReadError::Io(e) if e.kind() == io::ErrorKind::InvalidData));
    }

    #[cfg(unix)]
    #[test]
    fn fifos_devices_sockets_and_folders_are_refused_at_once() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("fifo");
        mkfifo(&fifo);
        let sock = d.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        let started = Instant::now();
        for (path, kind) in [
            (fifo.as_path(), FileKind::Fifo),
            (link.as_path(), FileKind::Fifo),
            (sock.as_path(), FileKind::Socket),
            (Path::new("/dev/zero"), FileKind::CharDevice),
            (d.path(), FileKind::Folder),
        ] {
            match read(path, 1 << 20) {
                Err(ReadError::NotAFile(k)) => assert_eq!(k, kind, "{}", path.display()),
                other => panic!("{}: {other:?}", path.display()),
            }
        }
        assert!(started.elapsed() < Duration::from_secs(5));
        let e: io::Error = ReadError::NotAFile(FileKind::Folder).into();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        assert_eq!(
            ReadError::NotAFile(FileKind::Fifo).to_string(),
            "not a regular file (a FIFO)"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_only_inside_the_folder() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.html"), "x").unwrap();
        std::fs::create_dir(outside.path().join("dir")).unwrap();
        std::fs::write(outside.path().join("dir/page.html"), "x").unwrap();
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("public");
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::write(root.join("a/real.html"), "inside").unwrap();
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, root.join(name)).unwrap();
        };
        link(&root.join("a/real.html"), "alias.html");
        link(Path::new("a/real.html"), "relative.html");
        link(&outside.path().join("secret.html"), "out.html");
        link(&outside.path().join("dir"), "outdir");
        link(Path::new("../"), "up");
        let folder = Folder::new(&root).unwrap();
        assert_eq!(
            read_in(&root.join("alias.html"), &folder, 99).unwrap(),
            b"inside"
        );
        assert_eq!(
            read_in(&root.join("relative.html"), &folder, 99).unwrap(),
            b"inside"
        );
        for name in ["out.html", "outdir/page.html"] {
            let e = read_in(&root.join(name), &folder, 99).unwrap_err();
            assert!(matches!(e, ReadError::Outside(_)), "{name}: {e}");
        }
        // The folder itself reached through a link of its own is still the folder.
        let via = d.path().join("via");
        std::os::unix::fs::symlink(&root, &via).unwrap();
        let folder = Folder::new(&via).unwrap();
        assert_eq!(
            read_in(&via.join("a/real.html"), &folder, 99).unwrap(),
            b"inside"
        );
        assert!(read_in(&via.join("up/public/a/real.html"), &folder, 99).is_ok());
        assert!(matches!(
            read_in(&via.join("out.html"), &folder, 99),
            Err(ReadError::Outside(_))
        ));
    }

    #[test]
    fn a_listed_file_is_read_to_its_size_when_opened() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("page.md");
        std::fs::write(&p, "0123456789").unwrap();
        let (mut file, size) = open_listed(&p).unwrap();
        assert_eq!(size, 10);
        let mut buf = Vec::new();
        // Less than the file: not its end.
        assert!(!read_more(&mut file, size, &mut buf, 4).unwrap());
        assert_eq!(buf, b"0123");
        // Grown after the open: read as it was then.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(b"abc")
            .unwrap();
        assert!(read_more(&mut file, size, &mut buf, 100).unwrap());
        assert_eq!(buf, b"0123456789");
        // A size of 0 says nothing: read to the end.
        let (mut file, _) = open_listed(&p).unwrap();
        let mut buf = Vec::new();
        assert!(read_more(&mut file, 0, &mut buf, 100).unwrap());
        assert_eq!(buf, b"0123456789abc");
        let (mut file, size) = open_listed(&p).unwrap();
        let mut buf = Vec::new();
        assert!(read_more(&mut file, size, &mut buf, 13).unwrap());
        assert_eq!(buf.len(), 13);
        // Shrunk after the open: its end, where it now is.
        let (mut file, size) = open_listed(&p).unwrap();
        std::fs::write(&p, "xy").unwrap();
        let mut buf = Vec::new();
        assert!(read_more(&mut file, size, &mut buf, 100).unwrap());
        assert_eq!(buf, b"xy");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_opened_by_name_in_its_open_folder_is_the_one_its_path_names() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        for (dir, text) in [(&a, "one"), (&b, "two")] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join("p.md"), text).unwrap();
        }
        mkfifo(&a.join("fifo.md"));
        std::fs::create_dir(a.join("sub.md")).unwrap();
        let (da, db) = (OpenDir::open(&a).unwrap(), OpenDir::open(&b).unwrap());
        let read = |dir: &OpenDir, name: &str, path: &Path| -> Result<Vec<u8>, ReadError> {
            let (mut file, size) = open_listed_at(dir, name, path)?;
            let mut buf = Vec::new();
            read_more(&mut file, size, &mut buf, 100)?;
            Ok(buf)
        };
        assert_eq!(read(&da, "p.md", &a.join("p.md")).unwrap(), b"one");
        assert_eq!(read(&db, "p.md", &b.join("p.md")).unwrap(), b"two");
        // The name is opened in the folder held (the path is only the fall-back).
        assert_eq!(read(&da, "p.md", &b.join("p.md")).unwrap(), b"one");
        // What the name does not open as a file is refused as its path is.
        let fifo = read(&da, "fifo.md", &a.join("fifo.md"));
        assert!(matches!(fifo, Err(ReadError::NotAFile(FileKind::Fifo))));
        let folder = read(&da, "sub.md", &a.join("sub.md"));
        assert!(matches!(folder, Err(ReadError::NotAFile(FileKind::Folder))));
        assert!(matches!(read(&da, "gone.md", &a.join("gone.md")), Err(e) if e.is_not_found()));
        assert!(OpenDir::open(&a.join("p.md")).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_listed_path_that_is_no_longer_a_file_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("page.md");
        mkfifo(&fifo);
        let started = Instant::now();
        assert!(matches!(
            open_listed(&fifo),
            Err(ReadError::NotAFile(FileKind::Fifo))
        ));
        assert!(matches!(
            open_listed(d.path()),
            Err(ReadError::NotAFile(FileKind::Folder))
        ));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(Size(16 << 20).to_string(), "16 MiB");
        assert_eq!(Size(256 << 10).to_string(), "256 KiB");
        assert_eq!(Size(1000).to_string(), "1000 bytes");
    }
}
