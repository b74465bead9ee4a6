//! `lcmem model install DIR`: a downloaded model folder copied into the store
//! root, under `models/NAME/`, after checking that it loads. Only the three
//! files the encoder reads are copied.

use std::path::{Path, PathBuf};

use super::model::{Encoder, MODEL_FILES};
use crate::error::{Error, IoContext, Result};

/// The folder of the store root that installed models live in.
pub const MODELS_DIR: &str = "models";

/// Copies the model in `source` to `home/models/name/` (replacing an
/// earlier copy of that name) and returns where it now is. The model is
/// loaded first, so a folder that is not a usable model is refused before
/// anything is written; the copy is made beside the target and renamed into
/// place, so a failed copy never leaves half a model behind.
pub fn install(home: &Path, source: &Path, name: &str) -> Result<PathBuf> {
    let bad_name = name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']);
    if bad_name {
        return Err(Error::Model {
            dir: source.to_path_buf(),
            message: format!("{name:?} cannot name a model folder; give --name a plain folder name"),
        });
    }
    Encoder::load(source)?;
    let models = home.join(MODELS_DIR);
    if std::fs::symlink_metadata(&models).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::Model {
            dir: models,
            message: "is a symbolic link: lcmem does not write through links out of its store".into(),
        });
    }
    std::fs::create_dir_all(&models).at(&models)?;
    let target = models.join(name);
    let partial = models.join(format!(".{name}.installing-{}", std::process::id()));
    if partial.exists() {
        std::fs::remove_dir_all(&partial).at(&partial)?;
    }
    std::fs::create_dir(&partial).at(&partial)?;
    for file in MODEL_FILES {
        let to = partial.join(file);
        std::fs::copy(source.join(file), &to).at(&to)?;
    }
    if target.exists() {
        std::fs::remove_dir_all(&target).at(&target)?;
    }
    std::fs::rename(&partial, &target).at(&target)?;
    Ok(target)
}
