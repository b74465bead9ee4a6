//! MCP hygiene, over raw JSON-RPC lines to the real `lcmem mcp` process:
//! flat schemas, a parse error for a line that is not JSON, invalid params
//! in a sentence, a bounded query never echoed, absolute citations, and no
//! padding hits.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

use super::{call, check_citations, connect, shop, text_of};
use crate::common::Sandbox;

/// The server as a child process spoken to one line at a time.
struct Raw {
    child: Child,
    input: ChildStdin,
    /// The server's lines, read on a thread of their own so that a server
    /// that says nothing fails the test instead of hanging it.
    output: Receiver<String>,
}

impl Raw {
    fn start(sandbox: &Sandbox) -> Raw {
        let mut child = Command::new(crate::common::lcmem_bin())
            .arg("--home")
            .arg(sandbox.home())
            .arg("--project")
            .arg(sandbox.project())
            .arg("mcp")
            .env_remove("LEVELCODE_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (lines, output) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if lines.send(line).is_err() {
                    break;
                }
            }
        });
        let mut raw = Raw { child, input, output };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
        assert_eq!(raw.ask(&init.to_string())["result"]["serverInfo"]["name"], "lcmem");
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
        raw
    }

    fn send(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).unwrap();
        self.input.write_all(b"\n").unwrap();
        self.input.flush().unwrap();
    }

    /// Sends a line and reads the one reply it must get.
    fn ask(&mut self, line: &str) -> Value {
        self.send(line);
        let shown: String = line.chars().take(80).collect();
        let reply =
            self.output.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|e| panic!("no reply to {shown} ({e})"));
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}: {reply}"))
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        let reply = self.ask(&request.to_string());
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a schema holds anything Cursor or the Gemini CLI reject.
fn unflat(schema: &Value, at: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$defs" || key == "$ref" || key == "definitions" {
                    found.push(format!("{at}/{key}"));
                }
                if key == "type" && !value.is_string() {
                    found.push(format!("{at}/type = {value}"));
                }
                if matches!(key.as_str(), "anyOf" | "oneOf" | "allOf") {
                    found.push(format!("{at}/{key}"));
                }
                unflat(value, &format!("{at}/{key}"), found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| unflat(v, at, found)),
        _ => {}
    }
}

#[test]
fn schemas_are_flat_and_protocol_errors_are_answered() {
    let sandbox = shop();
    let mut raw = Raw::start(&sandbox);

    let tools = raw.ask(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string());
    let tools = tools["result"]["tools"].as_array().unwrap().clone();
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["correct", "memory_digest", "recall_sessions", "remember"], "no confirm or forget tool");
    for tool in &tools {
        let mut found = Vec::new();
        unflat(&tool["inputSchema"], "", &mut found);
        assert!(found.is_empty(), "{}: {found:?} in {}", tool["name"], tool["inputSchema"]);
        assert_eq!(tool["inputSchema"]["type"], "object");
    }

    // A line that is not JSON gets a parse error, and the server goes on.
    let parse = raw.ask("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": ");
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    assert_eq!(parse["id"], Value::Null, "{parse}");
    let parse = raw.ask("not json at all");
    assert_eq!(parse["error"]["code"], -32700, "{parse}");

    // Wrong params: -32602 with a sentence naming the param and what to send.
    for (arguments, param) in [
        (json!({"query": 42}), "`query`"),
        (json!({}), "`query`"),
        (json!({"query": "refunds", "limit": "ten"}), "`limit`"),
        (json!({"query": "refunds", "kinds": ["memo"]}), "`kinds`"),
        (json!({"query": "refunds", "colour": "blue"}), "`colour`"),
    ] {
        let reply = raw.call(3, "recall_sessions", arguments.clone());
        assert_eq!(reply["error"]["code"], -32602, "{arguments}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(param) && message.split_whitespace().count() >= 6, "{arguments}: {message}");
    }
    let reply = raw.call(4, "remember", json!({"words": "x"}));
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    // Params that do not fit the method itself, not only a tool's arguments.
    for (request, param) in [
        (json!({"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": "recall"}), "`params`"),
        (json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"arguments": {}}}), "`params.name`"),
        (json!({"jsonrpc": "2.0", "id": 43, "method": "resources/read", "params": {}}), "`params.uri`"),
    ] {
        let reply = raw.ask(&request.to_string());
        assert_eq!((reply["id"].clone(), reply["error"]["code"].clone()), (request["id"].clone(), json!(-32602)));
        assert!(reply["error"]["message"].as_str().unwrap().contains(param), "{request}: {reply}");
    }

    // A 1.2 MB query is refused in a sentence, not echoed back.
    let huge = "refund ".repeat(1_200_000 / 7);
    let reply = raw.call(5, "recall_sessions", json!({"query": huge}));
    let text = reply.to_string();
    assert!(text.len() < 2_000, "a {} byte answer to a huge query", text.len());
    assert_eq!(reply["error"]["code"], -32602, "{text}");
    assert!(text.contains("at most 2000"), "{text}");

    let after = raw.call(6, "recall_sessions", json!({"query": "refund retries", "limit": 2}));
    assert!(after["result"]["content"][0]["text"].as_str().unwrap().contains("1. "), "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn citations_are_absolute_and_padding_hits_are_dropped() {
    let sandbox = shop();
    let client = connect(&sandbox).await;
    let answer =
        text_of(&client.call_tool(call("recall_sessions", json!({"query": "vitest", "limit": 20}))).await.unwrap());
    client.cancel().await.unwrap();
    assert!(check_citations(&sandbox, &answer) > 0, "{answer}");
    let scores: Vec<f64> =
        answer.lines().filter_map(|l| l.rsplit_once(" · score ").and_then(|(_, s)| s.trim().parse().ok())).collect();
    assert!(!scores.is_empty(), "{answer}");
    let best = scores.iter().copied().fold(0.0, f64::max);
    assert!(scores.iter().all(|&s| s >= best * 0.2), "padding hits in {scores:?}");
    // The same search from the CLI (which lists everything) has hits under
    // that floor, so the floor did drop some.
    let cli = sandbox.assert_cmd().args(["recall", "--json", "--limit", "20", "vitest"]).assert().success();
    let hits: Vec<Value> = serde_json::from_slice(&cli.get_output().stdout).unwrap();
    assert!(hits.iter().any(|h| h["score"].as_f64().unwrap() < best * 0.2), "no padding to drop: {hits:?}");
    assert!(scores.len() < hits.len());
}
