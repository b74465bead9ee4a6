//! The Anthropic lane: `POST {endpoint}/v1/messages` with `x-api-key` and
//! `anthropic-version`, the structure forced through a tool whose input
//! schema is the answer's.

use serde_json::{Value, json};

use super::prompt::Request;
use super::{LaneError, Reply};

pub const DEFAULT_ENDPOINT: &str = "https://api.anthropic.com";
pub const VERSION: &str = "2023-06-01";
const TOOL: &str = "record_session_memory";

/// `{endpoint}/v1/messages`, whether or not the endpoint already ends in `/v1`.
pub fn url(endpoint: &str) -> String {
    let base = endpoint.trim_end_matches('/');
    if base.ends_with("/v1") { format!("{base}/messages") } else { format!("{base}/v1/messages") }
}

pub fn body(model: &str, request: &Request, max_tokens: u32) -> Value {
    json!({
        "model": model,
        "max_tokens": max_tokens,
        "temperature": 0,
        "system": request.system,
        "messages": [{"role": "user", "content": request.user}],
        "tools": [{
            "name": TOOL,
            "description": "Record what the session achieved, in the answer's schema.",
            "input_schema": request.schema
        }],
        "tool_choice": {"type": "tool", "name": TOOL}
    })
}

pub fn headers(key: Option<&str>) -> Vec<(&'static str, String)> {
    let mut headers = vec![("anthropic-version", VERSION.to_string())];
    if let Some(key) = key {
        headers.push(("x-api-key", key.to_string()));
    }
    headers
}

/// The forced tool's input; a refusal or an answer without the tool call is
/// said as such.
pub fn reply(body: &Value) -> Result<Reply, LaneError> {
    let usage = &body["usage"];
    let tokens = |k: &str| usage[k].as_u64();
    if body["stop_reason"].as_str() == Some("refusal") {
        return Err(LaneError::Refused("the model declined to answer".into()));
    }
    let blocks = body["content"].as_array().ok_or_else(|| LaneError::Malformed("the message has no content".into()))?;
    let input = blocks
        .iter()
        .find(|b| b["type"] == "tool_use" && b["name"] == TOOL)
        .map(|b| b["input"].clone())
        .ok_or_else(|| LaneError::Malformed(format!("the message does not call the {TOOL} tool")))?;
    Ok(Reply { answer: input, tokens_in: tokens("input_tokens"), tokens_out: tokens("output_tokens"), usd: None })
}
