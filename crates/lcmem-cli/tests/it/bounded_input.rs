//! Input that is not a file, or is too large to be a session: refused with a
//! sentence that names it, never read, never waited on, and the hook still
//! exits 0 and logs why.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{Sandbox, hooks_log};

/// Runs `cmd` to its end, killing it past a minute (a process blocked on a
/// pipe would otherwise hang the test run): its output, or `None` when it
/// had to be killed.
fn finishes(mut cmd: Command, stdin: &str) -> Option<std::process::Output> {
    use std::io::Write;
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

#[test]
fn a_pipe_a_device_and_a_huge_sparse_file_are_refused_by_import_and_the_hooks() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    let fifo = sandbox.inbox().join("fifo.jsonl");
    let huge = sandbox.inbox().join("huge.jsonl");
    std::fs::File::create(&huge).unwrap().set_len(100 << 30).unwrap();
    let mut inputs = vec![(huge.clone(), "more than the"), (Path::new("/dev/zero").to_path_buf(), "it is a device")];
    if mkfifo(&fifo) {
        inputs.push((fifo.clone(), "it is a named pipe"));
    }
    for (path, said) in &inputs {
        let mut import = sandbox.cmd();
        import.args(["import", "--format", "claude-code"]).arg(path);
        let out = finishes(import, "").unwrap_or_else(|| panic!("lcmem import {} never returned", path.display()));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(said), "{}: {stderr}", path.display());
        assert!(stderr.contains(&path.display().to_string()), "the path is named: {stderr}");

        for event in ["Stop", "SessionEnd"] {
            let input =
                json!({"hook_event_name": event, "cwd": sandbox.project(), "transcript_path": path, "session_id": "x"});
            let mut hook = sandbox.cmd();
            hook.args(["hook", "claude-code"]);
            let out = finishes(hook, &input.to_string())
                .unwrap_or_else(|| panic!("the {event} hook blocked on {}", path.display()));
            assert!(out.status.success(), "a hook always exits 0");
        }
    }
    let log = hooks_log(&sandbox);
    for (path, _) in &inputs {
        assert!(log.contains(&path.display().to_string()), "{} is logged: {log}", path.display());
    }
    // Nothing was taken in, and no store was made for any of it.
    assert!(!sandbox.home().join("sessions").exists(), "{log}");
}
