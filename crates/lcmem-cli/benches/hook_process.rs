//! Claude Code's Stop and SessionEnd hooks as fresh processes on a 64 MB
//! transcript: what each reply and each session's end cost once the
//! transcript is large, and how long the seal SessionEnd starts in the
//! background takes. Each sample appends 20 lines (untimed), then runs
//! the real `lcmem hook claude-code` with the event's JSON on stdin.
//! Run: `cargo bench -p lcmem-cli --bench hook_process` (and `--bench
//! digest_process` for SessionStart on 10,000 sessions).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use divan::Bencher;
use serde_json::json;

fn main() {
    divan::main();
}

const TRANSCRIPT_BYTES: u64 = 64 << 20;

/// A project and a Claude Code transcript of 64 MB already imported once
/// (as the earlier Stops of the session did): the folder, the store root,
/// the project, the transcript and the number of turns written.
struct Setup {
    _dir: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    transcript: PathBuf,
    turns: usize,
}

/// One turn of a coding session: a prompt, a reply with a tool call and its
/// result (about 2.3 KB in all), as Claude Code writes them.
fn turn(i: usize, cwd: &Path) -> String {
    let id = "bench-session";
    let at = "2026-11-20T09:00:00Z";
    let user = json!({
        "type": "user", "sessionId": id, "uuid": format!("u{i}"), "cwd": cwd, "isSidechain": false, "timestamp": at,
        "message": {"role": "user", "content": format!("Step {i}: make the parser accept trailing commas in lists.")}
    });
    let assistant = json!({
        "type": "assistant", "sessionId": id, "uuid": format!("a{i}"), "cwd": cwd, "timestamp": at,
        "message": {"role": "assistant", "content": [
            {"type": "text", "text": format!("Looking at the list parser for step {i}; it stops at the closing bracket.")},
            {"type": "tool_use", "id": format!("t{i}"), "name": "Read", "input": {"file_path": cwd.join(format!("src/parser_{}.rs", i % 40))}}
        ]}
    });
    let output = format!("fn parse_list(&mut self) -> Result<List> {{ /* line {i} */ }}\n").repeat(28);
    let result = json!({
        "type": "user", "sessionId": id, "uuid": format!("r{i}"), "cwd": cwd, "timestamp": at,
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": format!("t{i}"), "content": output}]}
    });
    format!("{user}\n{assistant}\n{result}\n")
}

fn hook(home: &Path, input: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lcmem"))
        .arg("--home")
        .arg(home)
        .args(["hook", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
}

fn event(name: &str, setup: &Setup) -> String {
    json!({
        "session_id": "bench-session", "transcript_path": setup.transcript, "cwd": setup.project,
        "hook_event_name": name, "reason": "other", "stop_hook_active": false
    })
    .to_string()
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = dir.path().join("home");
    let transcript = dir.path().join("bench-session.jsonl");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&transcript).unwrap());
    let (mut written, mut turns) = (0u64, 0);
    while written < TRANSCRIPT_BYTES {
        let lines = turn(turns, &project);
        file.write_all(lines.as_bytes()).unwrap();
        written += lines.len() as u64;
        turns += 1;
    }
    file.flush().unwrap();
    let setup = Setup { _dir: dir, home, project, transcript, turns };
    hook(&setup.home, &event("Stop", &setup));
    let log = std::fs::read_to_string(setup.home.join("logs/hooks.log")).unwrap();
    assert!(log.contains("added bench-session"), "{log}");
    setup
}

/// Appends 20 lines (a prompt, then reply, tool call and result turns).
fn grow(setup: &Setup, turns: &mut usize) {
    let mut file = std::fs::OpenOptions::new().append(true).open(&setup.transcript).unwrap();
    let mut lines = String::new();
    for _ in 0..7 {
        lines.push_str(&turn(*turns, &setup.project));
        *turns += 1;
    }
    let twenty: String = lines.split_inclusive('\n').take(20).collect();
    file.write_all(twenty.as_bytes()).unwrap();
}

#[divan::bench(sample_count = 20, sample_size = 1)]
fn stop_on_a_64_mb_transcript_grown_by_20_lines(bencher: Bencher) {
    let setup = setup();
    let mut turns = setup.turns;
    let input = event("Stop", &setup);
    bencher.with_inputs(|| grow(&setup, &mut turns)).bench_local_values(|()| hook(&setup.home, &input));
    let log = std::fs::read_to_string(setup.home.join("logs/hooks.log")).unwrap();
    let last = log.lines().last().unwrap();
    assert!(last.contains("extended bench-session by") && last.contains("; read "), "{last}");
    eprintln!("last Stop: {last}");
}

/// How many SessionEnd lines the log holds: one per background seal done.
fn session_ends(home: &Path) -> usize {
    std::fs::read_to_string(home.join("logs/hooks.log")).unwrap_or_default().matches("SessionEnd: ").count()
}

/// Waits until the log holds `n` SessionEnd lines.
fn wait_for_session_ends(home: &Path, n: usize) {
    let start = std::time::Instant::now();
    while session_ends(home) < n {
        assert!(start.elapsed().as_secs() < 120, "the background seal never finished");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// What the agent waits for at its exit: the hook hands the seal to a
/// process of its own and returns. The previous sample's seal is waited for
/// (untimed) before the transcript grows again.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn session_end_on_a_64_mb_transcript_as_the_agent_waits_for_it(bencher: Bencher) {
    let setup = setup();
    let mut turns = setup.turns;
    let input = event("SessionEnd", &setup);
    let mut ended = 0;
    bencher
        .with_inputs(|| {
            wait_for_session_ends(&setup.home, ended);
            grow(&setup, &mut turns);
            ended += 1;
        })
        .bench_local_values(|()| hook(&setup.home, &input));
    wait_for_session_ends(&setup.home, ended);
    let log = std::fs::read_to_string(setup.home.join("logs/hooks.log")).unwrap();
    let last = log.lines().rfind(|l| l.contains("SessionEnd: ")).unwrap();
    assert!(last.contains("sealed"), "{last}");
    eprintln!("last SessionEnd: {last}");
}

/// The whole of it, in the background: from SessionEnd to the session
/// sealed (the wait for a still transcript, 0.5 s, included).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn session_end_until_sealed_in_the_background(bencher: Bencher) {
    let setup = setup();
    let mut turns = setup.turns;
    let input = event("SessionEnd", &setup);
    let mut ended = 0;
    bencher
        .with_inputs(|| {
            grow(&setup, &mut turns);
            ended += 1;
            ended
        })
        .bench_local_values(|n| {
            hook(&setup.home, &input);
            wait_for_session_ends(&setup.home, n);
        });
}
