//! Settings: a global `config.toml` under the store root, and a per-project
//! `config.toml` beside the project's sessions. Project values override
//! global ones, except that `memory.enabled = false` globally is a master
//! switch no project can override.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::jsonl;

/// The largest `memory.cap_tokens` accepted. The digest a session is given
/// is MEMORY.md (at most the cap, in o200k tokens) inside a frame of about
/// 400 characters, and Claude Code drops a hook's `additionalContext` past
/// 10,000 characters. English prose runs near 4 characters a token, so
/// 2,000 tokens (about 8,000 characters) leaves room for the frame and for
/// text whose tokens run longer (paths, identifiers).
pub const CAP_TOKENS_MAX: u32 = 2000;

/// A setting the engine knows: its dotted key, what it means, and its default.
#[derive(Debug, PartialEq)]
pub struct Key {
    pub name: &'static str,
    pub help: &'static str,
    pub default: Default,
}

/// The type and default value of a setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Default {
    Bool(bool),
    Int(i64),
    /// A decimal number, e.g. a price in US dollars.
    Float(f64),
    /// Free text; the empty string means "not set".
    Text(&'static str),
    /// One of a fixed set of words.
    Choice {
        default: &'static str,
        allowed: &'static [&'static str],
    },
}

/// The extraction lanes `extract.lane` may name.
pub const LANES: &[&str] = &["offline", "openai", "anthropic", "command"];

/// Every setting, documented once here and shown by `lcmem config list`.
pub const KEYS: &[Key] = &[
    Key {
        name: "memory.enabled",
        help: "master switch: when false nothing is written to memory",
        default: Default::Bool(true),
    },
    Key {
        name: "memory.consolidate_every",
        help: "rewrite MEMORY.md by itself after this many seals: 1, after every seal, keeps the next session current (0: only on demand)",
        default: Default::Int(1),
    },
    Key {
        name: "memory.cap_tokens",
        help: "hard cap on MEMORY.md, in o200k tokens (at most 2000: the 10,000 characters an agent takes from a hook at session start)",
        default: Default::Int(1500),
    },
    Key {
        name: "memory.archive_after_days",
        help: "a session inactive this long is auto-archived and fades from the digest",
        default: Default::Int(30),
    },
    Key {
        name: "memory.quiet_secs",
        help: "a session whose transcript has not changed for this long, and that got no SessionEnd, is sealed by the next session's start or stop, `lcmem catch-up` or `lcmem watch`",
        default: Default::Int(300),
    },
    Key {
        name: "memory.history",
        help: "how many previous MEMORY.md versions consolidation keeps for undo",
        default: Default::Int(20),
    },
    Key {
        name: "extract.lane",
        help: "who writes a sealed session's summary and facts: offline (rules, no network), openai, anthropic or command",
        default: Default::Choice { default: "offline", allowed: LANES },
    },
    Key {
        name: "extract.endpoint",
        help: "base URL of the model lane, e.g. http://127.0.0.1:11434/v1 (empty: the provider's public API)",
        default: Default::Text(""),
    },
    Key {
        name: "extract.model",
        help: "the model the lane asks for, e.g. qwen2.5-coder or claude-haiku-4-5",
        default: Default::Text(""),
    },
    Key {
        name: "extract.api_key_env",
        help: "the environment variable the lane reads its key from; the key itself is never written anywhere",
        default: Default::Text(""),
    },
    Key {
        name: "extract.command",
        help: "for the command lane: the program that reads the request on stdin, e.g. claude -p --output-format json",
        default: Default::Text(""),
    },
    Key {
        name: "extract.budget_tokens",
        help: "the most a model lane's request may hold, in tokens; longer sessions are trimmed in the middle",
        default: Default::Int(8000),
    },
    Key {
        name: "extract.max_usd_per_day",
        help: "estimated spend per day past which sealing falls back to the offline lane (0: no model spend at all)",
        default: Default::Float(1.0),
    },
    Key {
        name: "extract.timeout_secs",
        help: "how long a model request may take, retries included, before the seal falls back to the offline lane",
        default: Default::Int(45),
    },
    Key {
        name: "recall.model",
        help: "folder holding a sentence-embedding model (model.safetensors, tokenizer.json, config.json) for semantic recall; empty: lexical only",
        default: Default::Text(""),
    },
    Key {
        name: "recall.cross_project",
        help: "let recall in this project (`lcmem recall --all-projects`, the MCP tool's `projects`) search the other projects' memory too; off because a store may hold what one client must not see of another's",
        default: Default::Bool(false),
    },
];

/// The effective settings of one project.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub memory_enabled: bool,
    /// Why memory is off, when it is: which file switched it off.
    pub disabled_by: Option<Scope>,
    pub consolidate_every: u32,
    pub cap_tokens: u32,
    pub archive_after_days: u32,
    /// `memory.quiet_secs`: how long a transcript must be unchanged before a
    /// session that got no SessionEnd is taken to have ended.
    pub quiet_secs: u32,
    pub history: u32,
    pub extract: ExtractSettings,
    /// `recall.model`: where the embedding model lives, when one is set.
    pub recall_model: Option<PathBuf>,
    /// `recall.cross_project`: recall from this project may search the others.
    pub recall_cross_project: bool,
}

/// The `extract.*` settings: which lane seals, and its bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractSettings {
    /// One of [`LANES`].
    pub lane: String,
    pub endpoint: String,
    pub model: String,
    pub api_key_env: String,
    pub command: String,
    pub budget_tokens: u32,
    pub max_usd_per_day: f64,
    pub timeout_secs: u32,
}

impl Settings {
    /// `memory.quiet_secs` as a duration.
    pub fn quiet(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.quiet_secs.into())
    }
}

pub use crate::error::Scope;

/// Where a setting's effective value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// Neither file sets it.
    Default,
    /// The global file sets it and the project's does not.
    Global,
    /// The project's file sets it.
    Project,
    /// `memory.enabled = false` in the global file: the master switch, which
    /// no project's setting overrides.
    GlobalSwitch,
}

impl Source {
    /// The file this value was read from, if any.
    pub fn scope(self) -> Option<Scope> {
        match self {
            Source::Default => None,
            Source::Global | Source::GlobalSwitch => Some(Scope::Global),
            Source::Project => Some(Scope::Project),
        }
    }
}

/// A setting's effective value and where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Effective {
    pub key: &'static Key,
    pub value: toml::Value,
    pub source: Source,
}

/// The two settings files of a project.
#[derive(Debug, Clone)]
pub struct ConfigFiles {
    pub global: PathBuf,
    pub project: PathBuf,
}

/// Both files, read once.
struct Tables {
    global: toml::Table,
    project: toml::Table,
}

impl ConfigFiles {
    /// The file a value from `source` is reported against: the one it was
    /// read from, or the project's for a default.
    fn file_of(&self, source: Source) -> PathBuf {
        source.scope().map_or_else(|| self.project.clone(), |s| self.path(s).to_path_buf())
    }

    pub fn path(&self, scope: Scope) -> &Path {
        match scope {
            Scope::Global => &self.global,
            Scope::Project => &self.project,
        }
    }

    fn tables(&self) -> Result<Tables> {
        Ok(Tables { global: read_table(&self.global)?, project: read_table(&self.project)? })
    }

    /// The effective value of one setting: the one place where precedence is
    /// decided. The project's file overrides the global one, except that
    /// `memory.enabled = false` globally is a master switch.
    pub fn effective(&self, key: &str) -> Result<Effective> {
        let key = key_named(key).ok_or_else(|| Error::UnknownSetting { key: key.to_string() })?;
        Ok(resolve(&self.tables()?, key))
    }

    /// The text one file sets `key` to, if it sets it to text.
    pub fn text_in(&self, scope: Scope, key: &str) -> Result<Option<String>> {
        let (section, leaf) = key.split_once('.').ok_or_else(|| Error::UnknownSetting { key: key.to_string() })?;
        let table = read_table(self.path(scope))?;
        Ok(table.get(section).and_then(|s| s.get(leaf)).and_then(toml::Value::as_str).map(str::to_string))
    }

    /// Every setting's effective value, in the order of [`KEYS`].
    pub fn effective_all(&self) -> Result<Vec<Effective>> {
        let tables = self.tables()?;
        Ok(KEYS.iter().map(|key| resolve(&tables, key)).collect())
    }

    /// Reads both files and resolves the effective settings.
    pub fn load(&self) -> Result<Settings> {
        let typed = Typed { files: self, tables: self.tables()? };
        let enabled = typed.value("memory.enabled");
        // A value that is not a boolean leaves memory on, as it always has.
        let memory_enabled = enabled.value.as_bool().unwrap_or(true);
        let disabled_by = if memory_enabled { None } else { enabled.source.scope() };
        let cap_tokens = typed.int("memory.cap_tokens")?;
        if cap_tokens > CAP_TOKENS_MAX {
            let file = Some(self.file_of(typed.value("memory.cap_tokens").source));
            return Err(Error::CapTooLarge { value: cap_tokens.to_string(), max: CAP_TOKENS_MAX, file });
        }
        Ok(Settings {
            memory_enabled,
            disabled_by,
            consolidate_every: typed.int("memory.consolidate_every")?,
            cap_tokens,
            archive_after_days: typed.int("memory.archive_after_days")?,
            quiet_secs: typed.int("memory.quiet_secs")?,
            history: typed.int("memory.history")?,
            extract: ExtractSettings {
                lane: typed.text("extract.lane")?,
                endpoint: typed.text("extract.endpoint")?,
                model: typed.text("extract.model")?,
                api_key_env: typed.text("extract.api_key_env")?,
                command: typed.text("extract.command")?,
                budget_tokens: typed.int("extract.budget_tokens")?,
                max_usd_per_day: typed.float("extract.max_usd_per_day")?,
                timeout_secs: typed.int("extract.timeout_secs")?,
            },
            recall_model: Some(typed.text("recall.model")?).filter(|t| !t.is_empty()).map(PathBuf::from),
            recall_cross_project: typed.boolean("recall.cross_project")?,
        })
    }

    /// Sets one key in one file, keeping every other entry of that file.
    pub fn set(&self, scope: Scope, key: &str, value: &str) -> Result<()> {
        let known = key_named(key).ok_or_else(|| Error::UnknownSetting { key: key.to_string() })?;
        let bad = |expected: &str| Error::BadSettingValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        let parsed = match known.default {
            Default::Bool(_) => toml::Value::Boolean(match value {
                "true" | "on" | "yes" => true,
                "false" | "off" | "no" => false,
                _ => return Err(bad("true or false")),
            }),
            Default::Int(_) => toml::Value::Integer(value.parse::<u32>().map_err(|_| bad("a whole number"))?.into()),
            Default::Float(_) => toml::Value::Float(
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && *f >= 0.0)
                    .ok_or_else(|| bad("a number, 0 or more"))?,
            ),
            Default::Text(_) => toml::Value::String(value.to_string()),
            Default::Choice { allowed, .. } => {
                if !allowed.contains(&value) {
                    return Err(bad(&format!("one of {}", allowed.join(", "))));
                }
                toml::Value::String(value.to_string())
            }
        };
        if known.name == "memory.cap_tokens" && parsed.as_integer().is_some_and(|n| n > i64::from(CAP_TOKENS_MAX)) {
            return Err(Error::CapTooLarge { value: value.to_string(), max: CAP_TOKENS_MAX, file: None });
        }
        let path = self.path(scope);
        if scope == Scope::Project
            && let Some(dir) = path.parent()
        {
            // The project's folder in the store, under `sessions/`: the symlink rule.
            if let Some(sessions) = dir.parent().filter(|s| s.exists()) {
                crate::confine::refuse_link_outside(dir, sessions)?;
            }
            if dir.exists() {
                crate::confine::refuse_link_outside(path, dir)?;
            }
        }
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

    /// The user's prices, `[extract.prices]` in either file (the project's
    /// over the global one): `"model" = { input = 0.15, output = 0.60 }`, in
    /// US dollars per million tokens.
    pub fn prices(&self) -> Result<Vec<(String, f64, f64)>> {
        let tables = self.tables()?;
        let mut prices: Vec<(String, f64, f64)> = Vec::new();
        for (table, path) in [(&tables.project, &self.project), (&tables.global, &self.global)] {
            let Some(section) = table.get("extract").and_then(|e| e.get("prices")) else { continue };
            let bad = |message: String| Error::Config { path: path.clone(), message };
            let section = section.as_table().ok_or_else(|| bad("[extract.prices] must be a table".into()))?;
            for (model, price) in section {
                let number = |k: &str| {
                    price
                        .get(k)
                        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
                        .filter(|f| *f >= 0.0)
                };
                let (Some(input), Some(output)) = (number("input"), number("output")) else {
                    return Err(bad(format!(
                        "extract.prices.{model:?} must be {{ input = N, output = N }}, US dollars per million tokens"
                    )));
                };
                if !prices.iter().any(|(m, ..)| m == model) {
                    prices.push((model.clone(), input, output));
                }
            }
        }
        Ok(prices)
    }

    /// The value a key has in one file, if it is set there.
    pub fn get_in(&self, scope: Scope, key: &str) -> Result<Option<toml::Value>> {
        Ok(get(&read_table(self.path(scope))?, key))
    }
}

/// Precedence, decided once: the global master switch, then the project's
/// file, then the global file, then the default.
/// The effective settings read as the types [`Settings`] holds: a value of
/// the wrong type is an error that names the file that set it.
struct Typed<'a> {
    files: &'a ConfigFiles,
    tables: Tables,
}

impl Typed<'_> {
    fn value(&self, name: &str) -> Effective {
        resolve(&self.tables, key_named(name).expect("a known key"))
    }

    fn wrong(&self, source: Source, message: String) -> Error {
        Error::Config { path: self.files.file_of(source), message }
    }

    fn int(&self, name: &str) -> Result<u32> {
        let Effective { key, value, source } = self.value(name);
        let n = value.as_integer().ok_or_else(|| self.wrong(source, format!("{} must be a whole number", key.name)))?;
        u32::try_from(n).map_err(|_| self.wrong(source, format!("{} must be between 0 and {}", key.name, u32::MAX)))
    }

    fn text(&self, name: &str) -> Result<String> {
        let Effective { key, value, source } = self.value(name);
        let text = value.as_str().ok_or_else(|| self.wrong(source, format!("{} must be a string", key.name)))?;
        if let Default::Choice { allowed, .. } = key.default
            && !allowed.contains(&text)
        {
            let message = format!("{} must be one of {}, not {text:?}", key.name, allowed.join(", "));
            return Err(self.wrong(source, message));
        }
        Ok(text.to_string())
    }

    fn float(&self, name: &str) -> Result<f64> {
        let Effective { key, value, source } = self.value(name);
        value
            .as_float()
            .or_else(|| value.as_integer().map(|i| i as f64))
            .filter(|f| f.is_finite() && *f >= 0.0)
            .ok_or_else(|| self.wrong(source, format!("{} must be a number, 0 or more", key.name)))
    }

    fn boolean(&self, name: &str) -> Result<bool> {
        let Effective { key, value, source } = self.value(name);
        value.as_bool().ok_or_else(|| self.wrong(source, format!("{} must be true or false", key.name)))
    }
}

fn resolve(tables: &Tables, key: &'static Key) -> Effective {
    let effective = |value, source| Effective { key, value, source };
    if key.name == "memory.enabled"
        && let Some(value) = get(&tables.global, key.name).filter(|v| v.as_bool() == Some(false))
    {
        return effective(value, Source::GlobalSwitch);
    }
    if let Some(value) = get(&tables.project, key.name) {
        return effective(value, Source::Project);
    }
    if let Some(value) = get(&tables.global, key.name) {
        return effective(value, Source::Global);
    }
    effective(key.default.value(), Source::Default)
}

impl Default {
    /// The default as a TOML value.
    pub fn value(self) -> toml::Value {
        match self {
            Default::Bool(b) => toml::Value::Boolean(b),
            Default::Int(i) => toml::Value::Integer(i),
            Default::Float(f) => toml::Value::Float(f),
            Default::Text(t) => toml::Value::String(t.to_string()),
            Default::Choice { default, .. } => toml::Value::String(default.to_string()),
        }
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

#[cfg(test)]
mod tests;
