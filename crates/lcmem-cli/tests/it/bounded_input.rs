//! Input that is not a file, or is too large to be a session: refused with a
//! sentence that names it, never read, never waited on, and the hook still
//! exits 0 and logs why.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{Sandbox, hooks_log, strace};

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

/// The Stop hook on `transcript` under strace: the lines of the trace, in
/// order, of the calls that open, read and lock files.
fn traced_stop(strace: &str, sandbox: &Sandbox, transcript: &Path) -> Vec<String> {
    let log = sandbox.dir.path().join("strace.log");
    let mut hook = sandbox.cmd();
    hook.args(["hook", "claude-code"]);
    let input = json!({"hook_event_name": "Stop", "cwd": sandbox.project(), "transcript_path": transcript,
                       "session_id": "locks"});
    let mut traced = Command::new(strace);
    traced.args(["-f", "-qq", "-e", "trace=openat,read,pread64,flock", "-o"]).arg(&log);
    traced.arg(hook.get_program()).args(hook.get_args());
    traced.envs(hook.get_envs().filter_map(|(k, v)| v.map(|v| (k, v)))).env_remove("LEVELCODE_HOME");
    let out = finishes(traced, &input.to_string()).expect("the hook returns");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(&log).unwrap().lines().map(str::to_owned).collect()
}

/// Where in `trace` the transcript was last read, and where the write lock
/// was first taken.
fn last_read_and_lock(trace: &[String], transcript: &Path) -> (usize, usize) {
    let name = transcript.display().to_string();
    let fds: Vec<String> = trace
        .iter()
        .filter(|l| l.contains("openat(") && l.contains(&name))
        .filter_map(|l| l.rsplit("= ").next().map(|fd| fd.trim().to_owned()))
        .collect();
    assert!(!fds.is_empty(), "the transcript was never opened:\n{}", trace.join("\n"));
    let reads_it =
        |l: &String| fds.iter().any(|fd| l.contains(&format!("read({fd},")) || l.contains(&format!("pread64({fd},")));
    let last_read = trace.iter().rposition(reads_it).expect("the transcript was read");
    let lock =
        trace.iter().position(|l| l.contains("flock(") && l.contains("LOCK_EX")).expect("the write lock was taken");
    (last_read, lock)
}

/// A hook reads and converts a transcript before it takes the project's
/// write lock, on the first import and on one that goes on from where the
/// last stopped: a large transcript never keeps other writers waiting.
#[test]
fn a_hook_reads_the_transcript_before_it_takes_the_write_lock() {
    let Some(strace) = strace() else { return };
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    let transcript = sandbox.dir.path().join("locks.jsonl");
    std::fs::write(&transcript, crate::common::claude_transcript("locks", &sandbox.project(), "Fix the parser."))
        .unwrap();
    for round in ["first import", "an import that goes on"] {
        let trace = traced_stop(&strace, &sandbox, &transcript);
        let (last_read, lock) = last_read_and_lock(&trace, &transcript);
        assert!(last_read < lock, "{round}: the transcript was read under the lock:\n{}", trace.join("\n"));
        // What the next round appends.
        let more = crate::common::claude_transcript("locks", &sandbox.project(), "And the lexer.")
            .replace("locks-u1", "locks-u2")
            .replace("locks-a1", "locks-a2");
        let mut file = std::fs::OpenOptions::new().append(true).open(&transcript).unwrap();
        std::io::Write::write_all(&mut file, more.as_bytes()).unwrap();
    }
    assert!(hooks_log(&sandbox).contains("read the"), "the second import went on from where the first stopped");
}
