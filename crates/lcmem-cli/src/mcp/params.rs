//! Requests whose `params` do not fit their method. rmcp answers those with
//! a bare "method not found" (-32601, the method's name as the message) or an
//! "Invalid request" without the id; a client is better told which param is
//! wrong and what to send, as an invalid-params error (-32602). The stdio
//! layer ([`super::stdio`]) asks [`check`] about every request before rmcp
//! sees it, and [`reword`] about every reply rmcp sends.

use serde_json::{Value, json};

use super::TOOLS;
use super::args::what;

/// The request methods rmcp serves for this server: a -32601 naming one of
/// them is about its params, not the method.
const METHODS: &[&str] =
    &["initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read", "resources/templates/list"];

fn invalid(id: &Value, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": message}})
}

/// The answer to a request whose params cannot fit its method, if so.
pub fn check(message: &Value) -> Option<Value> {
    let (Some(id), Some(method)) = (message.get("id"), message.get("method").and_then(Value::as_str)) else {
        return None;
    };
    if !METHODS.contains(&method) {
        return None;
    }
    let params = message.get("params");
    match params {
        None | Some(Value::Object(_)) => {}
        Some(other) => return Some(invalid(id, format!("{method}: `params` must be an object, not {}", what(other)))),
    }
    let field = |name: &str| params.and_then(|p| p.get(name));
    match method {
        "tools/call" => {
            let tools = TOOLS.join(", ");
            match field("name") {
                Some(Value::String(_)) => {}
                None => {
                    return Some(invalid(id, format!("tools/call: `params.name` is required: one of {tools}")));
                }
                Some(other) => {
                    let sent = what(other);
                    return Some(invalid(
                        id,
                        format!("tools/call: `params.name` must be a string ({tools}), not {sent}"),
                    ));
                }
            }
            match field("arguments") {
                None | Some(Value::Object(_)) => None,
                Some(other) => Some(invalid(
                    id,
                    format!(
                        "tools/call: `params.arguments` must be an object of the tool's arguments, not {}",
                        what(other)
                    ),
                )),
            }
        }
        "resources/read" => match field("uri") {
            Some(Value::String(_)) => None,
            _ => Some(invalid(
                id,
                "resources/read: `params.uri` is required: a string, the resource's URI from resources/list".into(),
            )),
        },
        _ => None,
    }
}

/// rmcp's reply, with its bare "method not found" (the method's name as the
/// whole message) in a sentence: for a method it serves, what it is (params
/// that do not fit, -32602); for another, which methods there are.
pub fn reword(reply: &mut Value) -> bool {
    let Some(error) = reply.get_mut("error") else {
        return false;
    };
    let method = match (error.get("code").and_then(Value::as_i64), error.get("message").and_then(Value::as_str)) {
        (Some(-32601), Some(method)) if !method.contains(' ') => method.to_string(),
        _ => return false,
    };
    if METHODS.contains(&method.as_str()) {
        error["code"] = json!(-32602);
        error["message"] =
            json!(format!("{method}: its `params` do not fit the method; see the MCP specification for {method}"));
    } else {
        let shown: String = method.chars().take(60).collect();
        error["message"] = json!(format!(
            "method not found: `{shown}`; this server answers {} and the MCP notifications",
            METHODS.join(", ")
        ));
    }
    true
}
