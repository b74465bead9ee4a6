//! The tools' arguments: their input schemas, written out flat (no `$defs`,
//! no `$ref`, no type unions such as `["integer", "null"]`, which Cursor and
//! the Gemini CLI reject; an optional argument is simply not required), and
//! the checks that turn raw arguments into typed ones. Every problem is a
//! sentence naming the argument and what to send, answered as a JSON-RPC
//! invalid-params error (-32602). A query is never echoed back whole.

use std::sync::Arc;

use lcmem::recall::{HitKind, Projects, Query};
use rmcp::ErrorData;
use rmcp::model::JsonObject;
use serde_json::{Value, json};

/// The most hits one call may ask for: every hit costs the model context.
pub const MAX_LIMIT: u32 = 50;
/// Hits when the call does not say.
pub const DEFAULT_LIMIT: u32 = 8;
/// The longest query, in characters: a search needs words, not a document.
pub const MAX_QUERY_CHARS: usize = 2_000;
/// The longest text `remember` or `correct` writes, in characters.
pub const MAX_FACT_CHARS: usize = 1_000;

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("a schema is an object"),
    }
}

pub fn recall_schema() -> Arc<JsonObject> {
    schema(json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "maxLength": MAX_QUERY_CHARS,
                "description": "What to look for: words (matched after stemming, in any order), \"quoted phrases\", identifiers or paths."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                "description": "At most this many hits, 1 to 50 (default 8)."},
            "kinds": {"type": "array", "items": {"type": "string", "enum": ["turn", "journal", "fact"]},
                "description": "Only these kinds of hits: \"turn\" (a message or tool action of a transcript), \"journal\" (what a sealed session achieved), \"fact\" (a durable fact, in whatever state). Default: all three."},
            "since": {"type": "string",
                "description": "Only hits from this date on: 2026-11-01 (a whole UTC day) or an RFC 3339 time."},
            "projects": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_PROJECTS,
                "description": "Which projects' memory to search: [\"this\"] (the default: this project only), [\"all\"] (every project of this user), or store slugs such as [\"api-1a2b3c4d\"]. Other projects are searched only where the user turned recall.cross_project on; each hit names its project."}
        },
        "required": ["query"],
        "additionalProperties": false
    }))
}

pub fn empty_schema() -> Arc<JsonObject> {
    schema(json!({"type": "object", "properties": {}, "additionalProperties": false}))
}

pub fn remember_schema() -> Arc<JsonObject> {
    schema(json!({
        "type": "object",
        "properties": {
            "text": {"type": "string", "maxLength": MAX_FACT_CHARS,
                "description": "The fact the user asked to keep, as one plain statement (\"The staging database is db-2.\")."}
        },
        "required": ["text"],
        "additionalProperties": false
    }))
}

pub fn correct_schema() -> Arc<JsonObject> {
    schema(json!({
        "type": "object",
        "properties": {
            "id": {"type": "string",
                "description": "The fact's id (f and 10 hex digits, as recall shows it), or a prefix of it that matches no other fact."},
            "not_true": {"type": "boolean",
                "description": "true: the user says the fact is not true. Give this or `text`, not both."},
            "text": {"type": "string", "maxLength": MAX_FACT_CHARS,
                "description": "What is true instead: replaces the fact (the old one stays, superseded, and can be restored)."}
        },
        "required": ["id"],
        "additionalProperties": false
    }))
}

/// An invalid-params error in a sentence.
pub fn invalid(tool: &str, message: impl std::fmt::Display) -> ErrorData {
    ErrorData::invalid_params(format!("{tool}: {message}"), None)
}

/// What a JSON value is, for a sentence that says what was sent instead.
pub(super) fn what(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Refuses arguments the tool does not take.
fn only(tool: &str, args: &JsonObject, known: &[&str]) -> Result<(), ErrorData> {
    match args.keys().find(|k| !known.contains(&k.as_str())) {
        Some(key) => {
            let key: String = key.chars().take(40).collect();
            Err(invalid(tool, format!("unknown argument `{key}`: this tool takes {}", known.join(", "))))
        }
        None => Ok(()),
    }
}

/// A string argument: `Ok(None)` when absent.
fn string<'a>(tool: &str, args: &'a JsonObject, name: &str, means: &str) -> Result<Option<&'a str>, ErrorData> {
    match args.get(name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(invalid(tool, format!("`{name}` must be a string ({means}), not {}", what(other)))),
    }
}

/// A bounded text argument, required.
fn text<'a>(tool: &str, args: &'a JsonObject, name: &str, means: &str, max: usize) -> Result<&'a str, ErrorData> {
    let Some(value) = string(tool, args, name, means)? else {
        return Err(invalid(tool, format!("`{name}` is required: a string, {means}")));
    };
    let value = value.trim();
    if value.is_empty() {
        return Err(invalid(tool, format!("`{name}` is empty: give {means}")));
    }
    let chars = value.chars().count();
    if chars > max {
        return Err(invalid(tool, format!("`{name}` is {chars} characters long: send at most {max} ({means})")));
    }
    Ok(value)
}

/// Checks the arguments of `recall_sessions` and turns them into a query.
/// The most projects one call may name.
const MAX_PROJECTS: usize = 64;

pub fn recall(args: &JsonObject) -> Result<(Query, Projects), ErrorData> {
    const TOOL: &str = "recall_sessions";
    only(TOOL, args, &["query", "limit", "kinds", "since", "projects"])?;
    let words = text(TOOL, args, "query", "the words to look for", MAX_QUERY_CHARS)?;
    let limit = match args.get("limit") {
        None => DEFAULT_LIMIT,
        Some(Value::Number(n)) => match n.as_u64().filter(|n| (1..=u64::from(MAX_LIMIT)).contains(n)) {
            Some(n) => n as u32,
            None => return Err(invalid(TOOL, format!("`limit` {n} is out of range: use 1 to {MAX_LIMIT}"))),
        },
        Some(other) => {
            return Err(invalid(
                TOOL,
                format!("`limit` must be a whole number, 1 to {MAX_LIMIT}, not {}", what(other)),
            ));
        }
    };
    let mut query = Query::new(words);
    query.limit = limit as usize;
    match args.get("kinds") {
        None => {}
        Some(Value::Array(kinds)) => {
            for kind in kinds {
                let kind = match kind.as_str() {
                    Some("turn") => HitKind::Turn,
                    Some("journal") => HitKind::Journal,
                    Some("fact") => HitKind::Fact,
                    _ => {
                        let sent: String = kind.to_string().chars().take(40).collect();
                        return Err(invalid(
                            TOOL,
                            format!("`kinds` holds {sent}: each kind is \"turn\", \"journal\" or \"fact\""),
                        ));
                    }
                };
                if !query.kinds.contains(&kind) {
                    query.kinds.push(kind);
                }
            }
        }
        Some(other) => {
            return Err(invalid(
                TOOL,
                format!("`kinds` must be an array of \"turn\", \"journal\", \"fact\", not {}", what(other)),
            ));
        }
    }
    if let Some(since) = string(TOOL, args, "since", "a date such as 2026-11-01 or an RFC 3339 time")? {
        let since = crate::when::parse_date(since, false).map_err(|e| invalid(TOOL, format!("`since`: {e}")))?;
        query.since = Some(since);
    }
    let projects = match args.get("projects") {
        None => Projects::This,
        Some(Value::Array(items)) if items.len() <= MAX_PROJECTS => {
            let mut names = Vec::new();
            for item in items {
                match item.as_str() {
                    Some(name) if lcmem::is_slug(name) || name == "this" || name == "all" => {
                        names.push(name.to_string())
                    }
                    _ => {
                        let sent: String = item.to_string().chars().take(60).collect();
                        return Err(invalid(
                            TOOL,
                            format!("`projects` holds {sent}: each is \"this\", \"all\" or a store slug"),
                        ));
                    }
                }
            }
            match names.clone().as_slice() {
                [] => Projects::This,
                [one] if one == "this" => Projects::This,
                names if names.iter().any(|n| n == "all") => Projects::All,
                _ => Projects::Named(names),
            }
        }
        Some(other) => {
            return Err(invalid(
                TOOL,
                format!("`projects` must be an array of at most {MAX_PROJECTS} strings, not {}", what(other)),
            ));
        }
    };
    Ok((query, projects))
}

/// Checks the arguments of `remember`: the text to keep.
pub fn remember(args: &JsonObject) -> Result<String, ErrorData> {
    only("remember", args, &["text"])?;
    Ok(text("remember", args, "text", "the fact the user asked to keep", MAX_FACT_CHARS)?.to_string())
}

/// Checks the arguments of `correct`: the fact and what to do with it.
pub fn correct(args: &JsonObject) -> Result<(String, lcmem::facts::Correction), ErrorData> {
    const TOOL: &str = "correct";
    only(TOOL, args, &["id", "not_true", "text"])?;
    let id = text(TOOL, args, "id", "the fact's id or a unique prefix of it", 64)?.to_string();
    let not_true = match args.get("not_true") {
        None | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(other) => return Err(invalid(TOOL, format!("`not_true` must be true or false, not {}", what(other)))),
    };
    let means = "what is true instead";
    let correction = match (not_true, args.contains_key("text")) {
        (true, true) => return Err(invalid(TOOL, "give either `not_true: true` or a new `text`, not both")),
        (true, false) => lcmem::facts::Correction::NotTrue,
        (false, true) => lcmem::facts::Correction::Text(text(TOOL, args, "text", means, MAX_FACT_CHARS)?.into()),
        (false, false) => {
            return Err(invalid(TOOL, "say what to correct: `not_true: true`, or a new `text` to replace the fact"));
        }
    };
    Ok((id, correction))
}
