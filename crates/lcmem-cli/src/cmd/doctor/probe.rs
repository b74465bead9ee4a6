//! Starts an MCP server as an agent would (its command, arguments and
//! environment from the agent's settings) and asks it for its tools.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

/// How long a server may take to answer `tools/list`.
const WAIT: Duration = Duration::from_secs(10);

/// The tools the server lists, or why it listed none.
pub fn tools(program: &str, args: &[String], env: &[(String, String)]) -> Result<Vec<String>, String> {
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": {"name": "lcmem-doctor", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let mut stdin = child.stdin.take().expect("piped");
    for request in requests {
        writeln!(stdin, "{request}").map_err(|e| format!("the server closed its input: {e}"))?;
    }
    let stdout = child.stdout.take().expect("piped");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(value) = serde_json::from_str::<Value>(&line)
                && value["id"] == 2
            {
                let _ = send.send(value);
                return;
            }
        }
    });
    let answer = receive.recv_timeout(WAIT);
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let answer = answer.map_err(|_| format!("no answer to tools/list within {} s", WAIT.as_secs()))?;
    if let Some(error) = answer.get("error") {
        return Err(format!("tools/list failed: {error}"));
    }
    let tools = answer["result"]["tools"].as_array().ok_or("tools/list answered no tools")?;
    Ok(tools.iter().filter_map(|t| t["name"].as_str().map(str::to_string)).collect())
}
