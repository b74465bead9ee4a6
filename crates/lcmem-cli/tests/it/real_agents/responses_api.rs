//! A scripted OpenAI Responses endpoint on 127.0.0.1, for driving the real
//! Codex CLI offline: the same small session as [`super::messages_api`]
//! plays for Claude Code (ask the project's memory, write `notes.txt` with a
//! shell command, report). Every request body is kept.

use std::io::Write;
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::messages_api::{QUESTION, REPORT};

pub struct Endpoint {
    /// The base URL a Codex model provider takes (`…/v1`).
    pub url: String,
    pub requests: Arc<Mutex<Vec<Value>>>,
}

impl Endpoint {
    pub fn start() -> Endpoint {
        // Codex needs no project: the shell command it is scripted to run writes the file.
        let (url, requests) = super::http::listen(std::path::PathBuf::new(), |stream, kept, _| serve(stream, kept));
        let url = format!("{url}/v1");
        Endpoint { url, requests }
    }

    /// The bodies of the requests that offered tools: the session's turns.
    pub fn turns(&self) -> Vec<Value> {
        let all = self.requests.lock().unwrap();
        all.iter().filter(|b| b["tools"].as_array().is_some_and(|t| !t.is_empty())).cloned().collect()
    }
}

fn serve(stream: TcpStream, kept: &Mutex<Vec<Value>>) -> std::io::Result<()> {
    let super::http::Request { post, path, body } = super::http::read(&stream)?;
    let mut out = stream;
    if !post || !path.ends_with("/responses") {
        let answer =
            if path.ends_with("/models") { json!({"object": "list", "data": [], "models": []}) } else { json!({}) };
        return super::http::reply(&mut out, "application/json", &answer.to_string());
    }
    kept.lock().unwrap().push(body.clone());
    let items = next_turn(&body);
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n{}",
        events(&body, &items)
    )?;
    out.flush()
}

/// Every tool the request offers, with the namespace it sits in (Codex
/// offers MCP tools inside `{"type": "namespace", "name": "mcp__lcmem"}`).
fn tools(body: &Value) -> Vec<(Option<String>, String)> {
    fn walk(list: &Value, namespace: Option<&str>, out: &mut Vec<(Option<String>, String)>) {
        for tool in list.as_array().into_iter().flatten() {
            let name = tool["name"].as_str().or(tool["function"]["name"].as_str()).unwrap_or("");
            out.push((namespace.map(String::from), name.to_string()));
            let inner = if tool["type"] == "namespace" { Some(name) } else { namespace };
            walk(&tool["tools"], inner, out);
        }
    }
    let mut out = Vec::new();
    walk(&body["tools"], None, &mut out);
    out
}

/// The script: recall, then a shell command that writes the notes, then
/// the report; a request without tools gets a few words.
fn next_turn(body: &Value) -> Vec<Value> {
    let offered = tools(body);
    let inputs: Vec<&Value> = body["input"].as_array().into_iter().flatten().collect();
    let outputs = inputs.iter().filter(|i| i["type"].as_str().is_some_and(|t| t.ends_with("_output"))).count();
    let message = |text: &str| json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]});
    if offered.is_empty() {
        return vec![message("Notes file")];
    }
    if outputs == 0
        && let Some((namespace, name)) = offered.iter().find(|(_, n)| n.ends_with("recall_sessions"))
    {
        let mut call = json!({"type": "function_call", "name": name, "call_id": "call_recall",
            "arguments": json!({"query": QUESTION, "limit": 5}).to_string()});
        if let Some(namespace) = namespace {
            call["namespace"] = json!(namespace);
        }
        return vec![call];
    }
    if outputs == 1
        && let Some((_, shell)) = offered.iter().find(|(_, n)| n == "exec_command" || n == "shell")
    {
        let cmd = "printf 'Scratch notes go here.\\n' > notes.txt";
        let arguments =
            if shell == "exec_command" { json!({"cmd": cmd}) } else { json!({"command": ["bash", "-lc", cmd]}) };
        return vec![
            json!({"type": "function_call", "name": shell, "call_id": "call_write", "arguments": arguments.to_string()}),
        ];
    }
    vec![message(REPORT)]
}

/// The reply as the stream of server-sent events Codex reads.
fn events(body: &Value, items: &[Value]) -> String {
    let mut out = String::new();
    let mut event = |data: Value| out.push_str(&format!("event: {}\ndata: {data}\n\n", data["type"].as_str().unwrap()));
    let response = json!({"id": "resp_scripted", "object": "response", "created_at": 1_764_500_000,
        "status": "in_progress", "model": body["model"], "output": []});
    event(json!({"type": "response.created", "response": response}));
    for (index, item) in items.iter().enumerate() {
        let mut item = item.clone();
        item["id"] = json!(format!("item_{index}"));
        item["status"] = json!("completed");
        if item["type"] == "message" {
            let mut open = item.clone();
            open["content"] = json!([]);
            open["status"] = json!("in_progress");
            event(json!({"type": "response.output_item.added", "output_index": index, "item": open}));
            event(json!({"type": "response.output_text.delta", "output_index": index, "content_index": 0,
                "item_id": item["id"], "delta": item["content"][0]["text"]}));
        } else {
            event(json!({"type": "response.output_item.added", "output_index": index, "item": item}));
        }
        event(json!({"type": "response.output_item.done", "output_index": index, "item": item}));
    }
    let mut done = response.clone();
    done["status"] = json!("completed");
    done["usage"] = json!({"input_tokens": 100, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 20,
        "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 120});
    event(json!({"type": "response.completed", "response": done}));
    out
}
