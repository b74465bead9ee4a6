//! A scripted Gemini API endpoint (`generativelanguage` v1beta) on
//! 127.0.0.1, for driving the real Gemini CLI offline. It plays the same
//! small session as the other endpoints: ask lcmem's recall tool, write
//! `notes.txt`, report. Every request body is kept.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::http::reply;
use super::messages_api::{QUESTION, REPORT};

pub struct Endpoint {
    pub url: String,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl Endpoint {
    pub fn start(project: PathBuf) -> Endpoint {
        let (url, requests) = super::http::listen(project, serve);
        Endpoint { url, requests }
    }

    /// The bodies of the requests that offered tools: the session's turns.
    pub fn turns(&self) -> Vec<Value> {
        let all = self.requests.lock().unwrap();
        all.iter().filter(|b| !declared(b).is_empty()).cloned().collect()
    }
}

/// The names of the functions a request offers.
pub fn declared(body: &Value) -> Vec<String> {
    let tools = body["tools"].as_array().into_iter().flatten();
    let functions = tools.flat_map(|t| t["functionDeclarations"].as_array().into_iter().flatten());
    functions.filter_map(|f| f["name"].as_str()).map(String::from).collect()
}

fn serve(stream: TcpStream, kept: &Mutex<Vec<Value>>, project: &Path) -> std::io::Result<()> {
    let super::http::Request { post, path, body } = super::http::read(&stream)?;
    let mut out = stream;
    if !post {
        return reply(&mut out, "application/json", "{}");
    }
    kept.lock().unwrap().push(body.clone());
    let answer = json!({
        "candidates": [{"content": {"role": "model", "parts": next_turn(&body, project)}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
    });
    if path.ends_with(":streamGenerateContent") {
        return reply(&mut out, "text/event-stream", &format!("data: {answer}\n\n"));
    }
    reply(&mut out, "application/json", &answer.to_string())
}

/// Recall first, then write the notes, then report; a request without tools
/// (a title, a check the client makes) gets a few words.
fn next_turn(body: &Value, project: &Path) -> Vec<Value> {
    let offered = declared(body);
    if offered.is_empty() {
        return vec![json!({"text": "Scratch notes"})];
    }
    let answered: Vec<&str> = body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["parts"].as_array().into_iter().flatten())
        .filter_map(|p| p["functionResponse"]["name"].as_str())
        .collect();
    if let Some(recall) = offered.iter().find(|t| t.ends_with("recall_sessions") && !answered.contains(&t.as_str())) {
        return vec![json!({"functionCall": {"name": recall, "args": {"query": QUESTION}}})];
    }
    if offered.iter().any(|t| t == "write_file") && !answered.contains(&"write_file") {
        let args = json!({"file_path": project.join("notes.txt"), "content": "Scratch notes go here.\n"});
        return vec![json!({"functionCall": {"name": "write_file", "args": args}})];
    }
    vec![json!({"text": REPORT})]
}
