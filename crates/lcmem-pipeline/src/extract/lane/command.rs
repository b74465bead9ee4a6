//! The command lane: the request is piped to a program the user already has
//! signed in (`claude -p --output-format json --model haiku`, `codex exec`),
//! so lcmem holds no key at all. The program is run through `sh -c` with the
//! request on stdin; its stdout is the answer, either the schema's JSON
//! itself or a wrapper that carries it (Claude Code's `--output-format json`
//! puts it under `result`, with the usage and cost beside it).
//!
//! The program runs in the temporary folder, not the project, and with
//! [`LANE_ENV`] set: an agent's CLI asked this way fires its own hooks, and
//! `lcmem hook` does nothing under this variable, so the answer never becomes
//! a session of its own nor starts another seal.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::prompt::Request;
use super::{LaneError, Reply};

/// Set (to `1`) in the environment of the program the command lane runs.
pub const LANE_ENV: &str = "LCMEM_LANE";

/// The text piped to the program: the task, the schema and the evidence.
pub fn text(request: &Request) -> String {
    format!(
        "{}\n\nAnswer with one JSON object and nothing else, following this JSON schema:\n{}\n\nThe session's \
         evidence:\n{}\n",
        request.system, request.schema, request.user
    )
}

/// Runs `command` with `input` on stdin, for at most `timeout`.
pub fn run(command: &str, input: &str, timeout: Duration) -> Result<Reply, LaneError> {
    let mut program = Command::new("sh");
    // Its own process group, so that a timeout stops whatever it started.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut program, 0);
    let mut child = program
        .arg("-c")
        .arg(command)
        .current_dir(crate::ambient::temp_dir())
        .env(LANE_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| LaneError::Command(format!("could not start `sh -c {command}`: {e}")))?;
    let piped = || LaneError::Command("the command's pipes could not be opened".to_string());
    let (Some(mut stdin), Some(out), Some(err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
        stop_group(&mut child);
        let _ = child.wait();
        return Err(piped());
    };
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.by_ref().take(super::http::MAX_BODY + 1).read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = read(Box::new(out));
    let stderr = read(Box::new(err));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= timeout => {
                stop_group(&mut child);
                let _ = child.wait();
                return Err(LaneError::Timeout(timeout));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(LaneError::Command(format!("waiting for the command failed: {e}"))),
        }
    };
    let _ = writer.join();
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    if !status.success() {
        let tail = String::from_utf8_lossy(&err);
        let tail = tail.trim().lines().last().unwrap_or("");
        return Err(LaneError::Command(format!("the command {status}: {}", crate::extract::clip(tail, 200))));
    }
    if out.len() as u64 > super::http::MAX_BODY {
        return Err(LaneError::Oversized(super::http::MAX_BODY));
    }
    reply(&String::from_utf8_lossy(&out))
}

/// Reads a program's stdout: the schema's JSON, or a wrapper carrying it
/// as a string under `result` (with `usage` and `total_cost_usd` beside it).
pub fn reply(stdout: &str) -> Result<Reply, LaneError> {
    let outer = super::json_in(stdout)?;
    let tokens = |k: &str| outer.get("usage").and_then(|u| u.get(k)).and_then(Value::as_u64);
    let result = outer.get("result");
    if outer.get("is_error") == Some(&Value::Bool(true)) {
        let said = result.and_then(Value::as_str).unwrap_or("no reason given");
        return Err(LaneError::Refused(crate::extract::clip(said, 200)));
    }
    let (answer, wrapped) = match result {
        Some(Value::String(inner)) => (super::json_in(inner)?, true),
        _ => (outer.clone(), false),
    };
    Ok(Reply {
        answer,
        tokens_in: if wrapped { tokens("input_tokens") } else { None },
        tokens_out: if wrapped { tokens("output_tokens") } else { None },
        usd: if wrapped { outer.get("total_cost_usd").and_then(Value::as_f64) } else { None },
    })
}

/// Kills the program and everything in its process group.
fn stop_group(child: &mut std::process::Child) {
    // The engine has no unsafe code, so the group is signalled by `kill`.
    #[cfg(unix)]
    let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).stderr(Stdio::null()).status();
    let _ = child.kill();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_answer_gives_its_usage_and_cost() {
        let out = r#"{"type":"result","is_error":false,"result":"```json\n{\"summary\":\"s\"}\n```",
                      "usage":{"input_tokens":120,"output_tokens":30},"total_cost_usd":0.0004}"#;
        let reply = reply(out).unwrap();
        assert_eq!(reply.answer["summary"], "s");
        assert_eq!((reply.tokens_in, reply.tokens_out, reply.usd), (Some(120), Some(30), Some(0.0004)));
        assert!(matches!(super::reply("no json here"), Err(LaneError::Malformed(_))));
    }
}
