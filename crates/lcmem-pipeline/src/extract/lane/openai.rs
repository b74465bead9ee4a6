//! The OpenAI-compatible lane: `POST {endpoint}/chat/completions` with a JSON
//! schema response format. One protocol serves OpenAI, Ollama, llama.cpp's
//! server, vLLM, LM Studio and OpenRouter.

use serde_json::{Value, json};

use super::prompt::Request;
use super::{LaneError, Reply};

pub const DEFAULT_ENDPOINT: &str = "https://api.openai.com/v1";

pub fn url(endpoint: &str) -> String {
    format!("{}/chat/completions", endpoint.trim_end_matches('/'))
}

/// How the request asks for the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `{type: "json_schema", json_schema: {strict, schema}}`: OpenAI's
    /// structured outputs, which most servers now accept.
    JsonSchema,
    /// `{type: "json_object", schema}`: the older form that llama.cpp's
    /// Python server (llama-cpp-python) and some others accept instead,
    /// turning the schema into a grammar.
    JsonObject,
}

pub fn body(model: &str, request: &Request, max_tokens: u32, form: Form) -> Value {
    let response_format = match form {
        Form::JsonSchema => json!({
            "type": "json_schema",
            "json_schema": {"name": "session_memory", "strict": true, "schema": request.schema}
        }),
        Form::JsonObject => json!({"type": "json_object", "schema": super::prompt::bounded(request.schema.clone())}),
    };
    json!({
        "model": model,
        "temperature": 0,
        "max_tokens": max_tokens,
        "messages": [
            {"role": "system", "content": request.system},
            {"role": "user", "content": request.user}
        ],
        "response_format": response_format
    })
}

/// Whether an error answer refuses the request's response format, so that
/// the other form is worth one try and retrying the same one is not.
pub fn refuses_format(status: u16, body: &str) -> bool {
    (400..600).contains(&status) && (body.contains("response_format") || body.contains("json_schema"))
}

pub fn headers(key: Option<&str>) -> Vec<(&'static str, String)> {
    key.map(|k| vec![("authorization", format!("Bearer {k}"))]).unwrap_or_default()
}

/// The answer inside a chat completion: the first choice's content, read as
/// JSON; a refusal or a cut-off answer is said as such.
pub fn reply(body: &Value) -> Result<Reply, LaneError> {
    let tokens = |k: &str| body.pointer(&format!("/usage/{k}")).and_then(Value::as_u64);
    let choice = body.pointer("/choices/0");
    let message = choice.and_then(|c| c.get("message"));
    if let Some(refusal) = message.and_then(|m| m.get("refusal")).and_then(Value::as_str).filter(|r| !r.is_empty()) {
        return Err(LaneError::Refused(crate::extract::clip(refusal, 200)));
    }
    let finish = choice.and_then(|c| c.get("finish_reason")).and_then(Value::as_str).unwrap_or("");
    let content = message
        .and_then(|m| m.get("content"))
        .and_then(Value::as_str)
        .ok_or_else(|| LaneError::Malformed("the completion has no message content".into()))?;
    let answer = super::json_in(content).map_err(|e| match finish {
        "length" => LaneError::Malformed("the answer was cut off at the token limit".into()),
        _ => e,
    })?;
    Ok(Reply { answer, tokens_in: tokens("prompt_tokens"), tokens_out: tokens("completion_tokens"), usd: None })
}
