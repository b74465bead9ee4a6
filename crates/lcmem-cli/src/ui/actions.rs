//! The changes a page can ask for, each one engine call, the same the
//! matching command makes: `lcmem facts …`, `lcmem pin`, `lcmem forget`,
//! `lcmem config set`, `lcmem consolidate [--undo]`. A fact action also
//! rewrites MEMORY.md (when there is one), so the digest shows it at once.

use lcmem::Scope;
use lcmem::facts::Action;
use lcmem::{Memory, Whose};

use super::pages::stored_session;
use super::{App, Fields, Flash};

/// Runs the action `path` names and says what it did.
pub fn post(app: &App, path: &str, fields: &Fields) -> Flash {
    match run(app, path, fields) {
        Ok(text) => Flash { error: false, text },
        Err(error) => Flash { error: true, text: crate::output::sentence(&error) },
    }
}

fn run(app: &App, path: &str, fields: &Fields) -> anyhow::Result<String> {
    let store = &app.store;
    let now = app.now()?;
    let memory = Memory::open(store.clone());
    let text = || fields.get("text").cloned().unwrap_or_default();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        ["facts", "add"] if fields.get("every").is_some_and(|v| v == "1") => {
            let id = memory.add_fact(&text(), Whose::Person, false, now)?;
            Ok(format!("added {id}, yours for every project"))
        }
        ["facts", "add"] => {
            let id = memory.add_fact(&text(), Whose::Project, false, now)?;
            Ok(format!("added {id}"))
        }
        ["facts", id, action] => {
            anyhow::ensure!(is_fact_id(id), "{id:?} is not a fact id");
            let (action, verb) = match *action {
                "confirm" => (Action::Confirm, "confirmed"),
                "pin" => (Action::Pin, "pinned"),
                "unpin" => (Action::Unpin, "unpinned"),
                "not-true" => (Action::NotTrue, "marked not true"),
                "restore" => (Action::Restore, "restored"),
                "edit" => (Action::Edit(text()), "edited"),
                "delete" => {
                    let id = memory.delete_fact(id, Whose::Project, now)?;
                    return Ok(format!("deleted {id}: its text is gone from disk"));
                }
                other => anyhow::bail!("no such action on a fact: {other}"),
            };
            let applied = memory.act_on_fact(id, action, Whose::Project, now)?;
            Ok(format!("{verb} {}", applied.id))
        }
        ["sessions", id, action @ ("pin" | "unpin" | "forget")] => {
            let id = stored_session(app, id).ok_or_else(|| anyhow::anyhow!("no session {id:?} in this store"))?;
            if *action == "forget" {
                let (id, report) = memory.forget(&id, now)?;
                return Ok(format!(
                    "forgot {id}: {} journal line(s), {} fact(s) and {} observation(s) removed",
                    report.journal_lines_removed,
                    report.facts_removed.len(),
                    report.provenance_removed
                ));
            }
            memory.set_pinned(&id, *action == "pin", now)?;
            Ok(format!("{action}ned {id}"))
        }
        ["settings", "memory"] => {
            let scope = match fields.get("scope").map(String::as_str) {
                Some("global") => Scope::Global,
                Some("project") => Scope::Project,
                _ => anyhow::bail!("say which scope: project or global"),
            };
            let value = match fields.get("enabled").map(String::as_str) {
                Some(v @ ("true" | "false")) => v,
                _ => anyhow::bail!("memory.enabled is true or false"),
            };
            store.config_files().set(scope, "memory.enabled", value)?;
            let on = store.settings()?.memory_enabled;
            Ok(format!(
                "memory.enabled = {value} for {}; memory is now {} for this project",
                if scope == Scope::Global { "every project" } else { "this project" },
                if on { "on" } else { "off" }
            ))
        }
        ["settings", "consolidate"] => match memory.consolidate(now)? {
            Some(r) => Ok(format!(
                "{} MEMORY.md: {} of {} tokens, {} facts, {} recent",
                if r.written { "wrote" } else { "unchanged" },
                r.tokens,
                r.cap,
                r.facts,
                r.recently
            )),
            None => Ok("memory is off for this project: nothing consolidated".into()),
        },
        ["settings", "undo"] => {
            let restored = memory.undo_consolidate(now)?;
            Ok(format!("restored MEMORY.md from {}", restored.display()))
        }
        _ => anyhow::bail!("no such action: {path}"),
    }
}

fn is_fact_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}
