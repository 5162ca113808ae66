//! The compile cache's entries: a compiled program or a failed compile's message, each
//! beside the hash recorded when it was written, published atomically (a concurrent
//! grader finds the whole entry or none) and trusted only while the hash still holds.

use std::fs;
use std::io::{self, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::naming::PROGRAM;
use crate::cli::exit::Fault;
use crate::keys::hex;
use crate::paths::files;

/// The name of a failed compile's message in a cache entry.
pub(super) const MESSAGE: &str = "message";

/// Whether the cache entry holds the file `name` (the program or a failure's message)
/// with the hash recorded beside it.
pub(super) fn verified(entry: &Path, name: &str) -> bool {
    // A hash is 64 hex digits: anything longer there is not one, and is not read on.
    let (Ok((recorded, true)), Ok(mut file)) = (
        crate::paths::files::read_head(&entry.join(format!("{name}.sha256")), 256),
        fs::File::open(entry.join(name)),
    ) else {
        return false;
    };
    digest(&mut file).is_ok_and(|d| d.as_bytes() == recorded.trim_ascii())
}

/// The message of a failed compile the cache entry holds, when it is verified.
pub(super) fn cached_message(entry: &Path) -> Option<String> {
    if !verified(entry, MESSAGE) {
        return None;
    }
    // Read after the check: the cache belongs to the grader's user alone.
    fs::read_to_string(entry.join(MESSAGE)).ok()
}

/// Whether the cache entry holds a verified program or message.
fn intact(entry: &Path) -> bool {
    verified(entry, PROGRAM) || verified(entry, MESSAGE)
}

fn digest(reader: &mut impl Read) -> io::Result<String> {
    let mut hashing = Hashing::new(io::sink());
    io::copy(reader, &mut hashing)?;
    Ok(hashing.hex())
}

/// A writer that hashes what passes through it.
struct Hashing<W> {
    inner: W,
    hash: Sha256,
}

impl<W: Write> Hashing<W> {
    fn new(inner: W) -> Hashing<W> {
        Hashing {
            inner,
            hash: Sha256::new(),
        }
    }

    /// The hash of everything written, in hexadecimal.
    fn hex(self) -> String {
        hex(&self.hash.finalize())
    }
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.hash.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Copies the compiled program (or a failure's message), as the file `name`, into the
/// cache with its hash, and publishes the entry atomically: a concurrent grader either
/// finds the whole entry or none.
pub(super) fn publish(
    built: &mut impl Read,
    cache: &Path,
    entry: &Path,
    name: &str,
) -> Result<(), Fault> {
    let work = tempfile::Builder::new()
        .prefix(".compile-")
        .tempdir_in(cache)
        .map_err(|e| Fault::setup(files::cannot(cache, "write into", &e)))?;
    // Readable by all (the cache itself is the grader's user's alone): a precompiled
    // header's entry is shown to boxes whose programs run as another uid.
    let open = |dir: &Path| {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755))
            .map_err(|e| Fault::setup(files::cannot(dir, "write", &e)))
    };
    open(work.path())?;
    let program = work.path().join(name);
    let mut dir = work.path().to_path_buf();
    for folder in Path::new(name)
        .parent()
        .into_iter()
        .flat_map(Path::components)
    {
        dir.push(folder);
        fs::create_dir(&dir).map_err(|e| Fault::setup(files::cannot(&dir, "write", &e)))?;
        open(&dir)?;
    }
    let to = fs::File::create(&program)
        .map_err(|e| Fault::setup(files::cannot(&program, "write", &e)))?;
    // Hashed as it is written: the record is of these very bytes.
    let mut to = Hashing::new(to);
    io::copy(built, &mut to).map_err(|e| Fault::setup(files::cannot(&program, "write", &e)))?;
    let hash = to.hex();
    let mode = if name == PROGRAM { 0o755 } else { 0o644 };
    fs::set_permissions(&program, fs::Permissions::from_mode(mode))
        .map_err(|e| Fault::setup(files::cannot(&program, "write", &e)))?;
    let record = work.path().join(format!("{name}.sha256"));
    fs::write(&record, hash).map_err(|e| Fault::setup(files::cannot(&record, "write", &e)))?;
    // A stale entry (it failed verification) makes way; a whole one stays (another
    // grader published it meanwhile, and may be using it).
    let whole = |entry: &Path| verified(entry, name) || intact(entry);
    if entry.exists() && !whole(entry) {
        let _ = fs::remove_dir_all(entry);
    }
    let staged = work.keep();
    match fs::rename(&staged, entry) {
        Ok(()) => Ok(()),
        Err(_) if whole(entry) => {
            let _ = fs::remove_dir_all(&staged);
            Ok(())
        }
        Err(e) => Err(Fault::setup(files::cannot(entry, "write", &e))),
    }
}
