//! Settings: a global `config.toml` under the store root, and a per-project
//! `config.toml` beside the project's sessions. Project values override
//! global ones, except that `memory.enabled = false` globally is a master
//! switch no project can override.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::jsonl;

/// A setting the engine knows: its dotted key, what it means, and its default.
pub struct Key {
    pub name: &'static str,
    pub help: &'static str,
    pub default: Default,
}

/// The type and default value of a setting.
#[derive(Clone, Copy)]
pub enum Default {
    Bool(bool),
    Int(i64),
}

/// Every setting, documented once here and shown by `lcmem config list`.
pub const KEYS: &[Key] = &[
    Key {
        name: "memory.enabled",
        help: "master switch: when false nothing is written to memory",
        default: Default::Bool(true),
    },
    Key {
        name: "memory.consolidate_every",
        help: "rewrite MEMORY.md by itself after this many seals (0: only on demand)",
        default: Default::Int(5),
    },
    Key { name: "memory.cap_tokens", help: "hard cap on MEMORY.md, in o200k tokens", default: Default::Int(1500) },
    Key {
        name: "memory.archive_after_days",
        help: "a session inactive this long is auto-archived and fades from the digest",
        default: Default::Int(30),
    },
    Key {
        name: "memory.history",
        help: "how many previous MEMORY.md versions consolidation keeps for undo",
        default: Default::Int(20),
    },
];

/// The effective settings of one project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub memory_enabled: bool,
    /// Why memory is off, when it is: which file switched it off.
    pub disabled_by: Option<Scope>,
    pub consolidate_every: u32,
    pub cap_tokens: u32,
    pub archive_after_days: u32,
    pub history: u32,
}

/// Which file a setting lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    Project,
}

/// The two settings files of a project.
#[derive(Debug, Clone)]
pub struct ConfigFiles {
    pub global: PathBuf,
    pub project: PathBuf,
}

impl ConfigFiles {
    pub fn path(&self, scope: Scope) -> &Path {
        match scope {
            Scope::Global => &self.global,
            Scope::Project => &self.project,
        }
    }

    /// Reads both files and resolves the effective settings.
    pub fn load(&self) -> Result<Settings> {
        let global = read_table(&self.global)?;
        let project = read_table(&self.project)?;
        let lookup = |key: &str| -> Result<Option<(toml::Value, Scope)>> {
            if let Some(v) = get(&project, key) {
                return Ok(Some((v, Scope::Project)));
            }
            Ok(get(&global, key).map(|v| (v, Scope::Global)))
        };
        let global_enabled = get(&global, "memory.enabled").and_then(|v| v.as_bool()).unwrap_or(true);
        let project_enabled = get(&project, "memory.enabled").and_then(|v| v.as_bool()).unwrap_or(true);
        let disabled_by = if !global_enabled {
            Some(Scope::Global)
        } else if !project_enabled {
            Some(Scope::Project)
        } else {
            None
        };
        let int = |key: &'static str| -> Result<u32> {
            let default = match key_named(key).map(|k| k.default) {
                Some(Default::Int(i)) => i,
                _ => 0,
            };
            let value = lookup(key)?.map(|(v, scope)| {
                v.as_integer().ok_or_else(|| Error::Config {
                    path: self.path(scope).to_path_buf(),
                    message: format!("{key} must be a whole number"),
                })
            });
            let n = value.transpose()?.unwrap_or(default);
            u32::try_from(n).map_err(|_| Error::Config {
                path: self.project.clone(),
                message: format!("{key} must be between 0 and {}", u32::MAX),
            })
        };
        Ok(Settings {
            memory_enabled: disabled_by.is_none(),
            disabled_by,
            consolidate_every: int("memory.consolidate_every")?,
            cap_tokens: int("memory.cap_tokens")?,
            archive_after_days: int("memory.archive_after_days")?,
            history: int("memory.history")?,
        })
    }

    /// Sets one key in one file, keeping every other entry of that file.
    pub fn set(&self, scope: Scope, key: &str, value: &str) -> Result<()> {
        let known = key_named(key).ok_or_else(|| {
            Error::Invalid(format!("unknown setting {key:?}; `lcmem config list` shows the settings"))
        })?;
        let parsed = match known.default {
            Default::Bool(_) => toml::Value::Boolean(match value {
                "true" | "on" | "yes" => true,
                "false" | "off" | "no" => false,
                _ => {
                    return Err(Error::Invalid(format!("{key} takes true or false, not {value:?}")));
                }
            }),
            Default::Int(_) => toml::Value::Integer(
                value
                    .parse::<u32>()
                    .map_err(|_| Error::Invalid(format!("{key} takes a whole number, not {value:?}")))?
                    .into(),
            ),
        };
        let path = self.path(scope);
        let mut table = read_table(path)?;
        let (section, leaf) = key.split_once('.').expect("known keys are dotted");
        let entry = table.entry(section).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(section_table) = entry else {
            return Err(Error::Config { path: path.to_path_buf(), message: format!("[{section}] must be a table") });
        };
        section_table.insert(leaf.to_string(), parsed);
        let text = toml::to_string_pretty(&table)
            .map_err(|e| Error::Config { path: path.to_path_buf(), message: e.to_string() })?;
        jsonl::atomic_write(path, text.as_bytes())
    }

    /// The value a key has in one file, if it is set there.
    pub fn get_in(&self, scope: Scope, key: &str) -> Result<Option<toml::Value>> {
        Ok(get(&read_table(self.path(scope))?, key))
    }
}

pub fn key_named(name: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.name == name)
}

fn read_table(path: &Path) -> Result<toml::Table> {
    let Some(bytes) = jsonl::read_optional(path)? else {
        return Ok(toml::Table::new());
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::Config { path: path.to_path_buf(), message: "not UTF-8 text".into() })?;
    text.parse::<toml::Table>().map_err(|e| Error::Config {
        path: path.to_path_buf(),
        message: format!("not valid TOML: {}", e.to_string().trim()),
    })
}

fn get(table: &toml::Table, key: &str) -> Option<toml::Value> {
    let (section, leaf) = key.split_once('.')?;
    table.get(section)?.as_table()?.get(leaf).cloned()
}
