//! Durability at the trust boundary, through real processes: an import
//! killed mid-append is repaired by the next one, dead writers' leftovers
//! are swept, symlinks out of the store are refused, MEMORY.md edits that
//! are not text become no fact, undo takes back a hand-added fact, and a
//! fact id given two texts is reported. Each test failed on the old code.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, SystemTime};

use crate::common::{Sandbox, files_under, message};
use crate::trust_forget::{holding, import_and_seal};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A message line of about `bytes` bytes, numbered.
fn big_message(n: usize, bytes: usize) -> String {
    message("assistant", &format!("Chunk {n}: {}", "lorem ipsum dolor ".repeat(bytes / 18)))
}

fn append(path: &Path, bytes: &[u8]) {
    use std::io::Write;
    std::fs::OpenOptions::new().append(true).open(path).unwrap().write_all(bytes).unwrap();
}

/// A growing transcript imported by processes SIGKILLed at random moments
/// (some of them mid-append, leaving the stored copy with a torn last
/// line). If no kill happened to land mid-write, the stored copy is torn
/// the way such a kill leaves it. Then a normal import succeeds and the
/// stored copy is the transcript, byte for byte.
#[test]
fn an_import_killed_mid_append_is_repaired_by_the_next_import() {
    let sandbox = Sandbox::new();
    let source = sandbox.write_session("growing", &[message("user", "Start the long job.")]);
    sandbox.assert_cmd().arg("import").arg(&source).assert().success();
    let stored = sandbox.store_dir().join("growing.jsonl");
    let mut rng = lcmem_test_support::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut torn_by_kills = 0;
    let mut n = 0;
    for _ in 0..12 {
        for _ in 0..4 {
            n += 1;
            append(&source, format!("{}\n", big_message(n, 256 * 1024)).as_bytes());
        }
        let child =
            sandbox.cmd().arg("import").arg(&source).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        crate::common::kill_at_random(child, &mut rng, 40_000);
        if std::fs::read(&stored).unwrap().last() != Some(&b'\n') {
            torn_by_kills += 1;
        }
    }
    eprintln!("{torn_by_kills} of 12 kills left a torn stored copy");
    let copy = std::fs::read(&stored).unwrap();
    if copy.last() == Some(&b'\n') {
        // Grow once more and leave half of the next line, as a kill mid-write does.
        n += 1;
        append(&source, format!("{}\n", big_message(n, 4096)).as_bytes());
        let all = std::fs::read(&source).unwrap();
        let next_line = all[copy.len()..].iter().position(|&b| b == b'\n').unwrap();
        let done = copy.len();
        std::fs::write(&stored, &all[..done + next_line / 2]).unwrap();
    }
    n += 1;
    append(&source, format!("{}\n", big_message(n, 1024)).as_bytes());
    let out = sandbox.cmd().arg("import").arg(&source).output().unwrap();
    assert!(out.status.success(), "torn by kills: {torn_by_kills}; {}", stderr(&out));
    assert!(std::fs::read(&stored).unwrap() == std::fs::read(&source).unwrap(), "the stored copy is the transcript");
    let again = sandbox.cmd().arg("import").arg(&source).output().unwrap();
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(!sandbox.store_dir().join("growing.jsonl.torn").exists(), "the cut line was written whole, not set aside");
}

#[test]
fn dead_writers_temp_files_and_build_folders_are_swept_at_the_next_write() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "tidy", "walrus");
    let dir = sandbox.store_dir();
    let old_temp = dir.join("memory/.lcmem-tmp-Ab12Cd");
    let young_temp = dir.join(".lcmem-tmp-Xy34Zw");
    std::fs::write(&old_temp, "a copy of MEMORY.md a killed consolidation left").unwrap();
    std::fs::write(&young_temp, "a rewrite in progress").unwrap();
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(&old_temp).unwrap().set_modified(an_hour_ago).unwrap();
    // pid_max is at most 2^22: these processes cannot exist.
    let dead_build = dir.join("cache/recall-v1.build-999999999");
    let dead_old = dir.join("cache/recall-v1.old-999999998");
    let live_build = dir.join("cache/recall-v1.build-1");
    for folder in [&dead_build, &dead_old, &live_build] {
        std::fs::create_dir_all(folder).unwrap();
        std::fs::write(folder.join("meta.json"), "{}").unwrap();
    }
    sandbox.assert_cmd().args(["pin", "tidy"]).assert().success();
    assert!(!old_temp.exists() && !dead_build.exists() && !dead_old.exists(), "{:?}", files_under(&dir));
    assert!(young_temp.exists(), "a young temporary file may be a live writer's");
    assert!(live_build.exists(), "pid 1 is alive: its build folder stays");
}

/// Every file under `dir` with its bytes.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
}

#[test]
fn symlinks_out_of_the_store_are_refused_and_nothing_is_written_through_them() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "linked", "walrus");
    let second = sandbox.write_session("second", &crate::trust_forget::session_about("otter"));
    sandbox.assert_cmd().arg("import").arg(&second).assert().success();
    let outside = sandbox.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();

    // memory/ moved out of the store and linked back.
    let memory = sandbox.store_dir().join("memory");
    std::fs::rename(&memory, outside.join("memory")).unwrap();
    std::os::unix::fs::symlink(outside.join("memory"), &memory).unwrap();
    let before = contents(&outside);
    let out = sandbox.cmd().args(["seal", "second"]).output().unwrap();
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(message.contains("symbolic link") && message.contains(&memory.display().to_string()), "{message}");
    assert!(message.contains("outside the store") && message.contains("outside/memory"), "{message}");
    assert_eq!(contents(&outside), before, "nothing was written outside the store");

    // memory/ back, journal.jsonl linked to a file outside.
    std::fs::remove_file(&memory).unwrap();
    std::fs::rename(outside.join("memory"), &memory).unwrap();
    let journal = memory.join("journal.jsonl");
    std::fs::rename(&journal, outside.join("journal.jsonl")).unwrap();
    std::os::unix::fs::symlink(outside.join("journal.jsonl"), &journal).unwrap();
    let before = contents(&outside);
    let out = sandbox.cmd().args(["seal", "second"]).output().unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains(&journal.display().to_string()), "{}", stderr(&out));
    let out = sandbox.cmd().args(["config", "set", "memory.history", "5"]).output().unwrap();
    assert!(out.status.success(), "config.toml is no link: {}", stderr(&out));
    assert_eq!(contents(&outside), before, "nothing was written outside the store");
}

/// Runs `lcmem consolidate`, which must succeed, and returns what it said on stderr.
fn consolidate_warnings(sandbox: &Sandbox) -> String {
    let out = sandbox.cmd().arg("consolidate").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    stderr(&out)
}

/// A sealed and consolidated session about walrus, and its MEMORY.md.
fn consolidated(sandbox: &Sandbox, id: &str) -> PathBuf {
    import_and_seal(sandbox, id, "walrus");
    sandbox.assert_cmd().arg("consolidate").assert().success();
    sandbox.store_dir().join("memory/MEMORY.md")
}

fn facts_text(sandbox: &Sandbox) -> String {
    std::fs::read_to_string(sandbox.store_dir().join("memory/facts.jsonl")).unwrap_or_default()
}

#[test]
fn binary_bytes_or_a_pasted_log_in_memory_md_are_reported_and_become_no_fact() {
    let sandbox = Sandbox::new();
    let memory = consolidated(&sandbox, "pasted");
    let facts_before = facts_text(&sandbox);

    let mut rng = lcmem_test_support::Rng::new(7);
    let mut garbage: Vec<u8> = b"\n- ".to_vec();
    garbage.extend((0..400).map(|_| rng.below(256) as u8).filter(|&b| b != b'\n'));
    garbage.extend_from_slice(b"\n- abc\x00\x01def \xc3\x28 ghi\n");
    append(&memory, &garbage);
    let said = consolidate_warnings(&sandbox);
    assert!(said.contains("not text"), "reported: {said}");
    assert_eq!(facts_text(&sandbox), facts_before, "no fact came from the bytes");

    let log: String =
        (0..200).map(|i| format!("2026-11-30 12:00:{:02} INFO request {i} served in 3ms\n", i % 60)).collect();
    append(&memory, log.as_bytes());
    let said = consolidate_warnings(&sandbox);
    assert!(said.contains("200 new lines at once"), "reported: {said}");
    assert_eq!(facts_text(&sandbox), facts_before, "no fact came from the pasted log");
}

#[test]
fn undo_takes_back_the_fact_a_hand_edit_added() {
    let sandbox = Sandbox::new();
    let memory = consolidated(&sandbox, "undone");
    append(&memory, b"- The deploy script lives in tools/ship.sh.\n");
    let out = sandbox.cmd().arg("consolidate").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("added your fact"), "{out:?}");
    assert!(facts_text(&sandbox).contains("tools/ship.sh"));
    sandbox.assert_cmd().args(["consolidate", "--undo"]).assert().success();
    assert!(
        !facts_text(&sandbox).contains("tools/ship.sh"),
        "the added fact's text is gone:\n{}",
        facts_text(&sandbox)
    );
    let listed = sandbox.cmd().args(["facts", "--json"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&listed.stdout).contains("tools/ship.sh"));
    assert!(String::from_utf8_lossy(&listed.stdout).contains("walrus"), "the session's own fact stays");
}

#[test]
fn one_fact_id_with_two_texts_gives_a_diagnostic_with_file_and_line() {
    let sandbox = Sandbox::new();
    import_and_seal(&sandbox, "twice", "walrus");
    let path = sandbox.store_dir().join("memory/facts.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let observe = text.lines().find(|l| l.contains("\"observe\"") && l.contains("walrus")).unwrap();
    let forged = observe.replace("ring buffer", "hash map");
    assert_ne!(forged, observe);
    append(&path, format!("{forged}\n").as_bytes());
    let line = text.lines().count() + 1;
    let out = sandbox.cmd().arg("facts").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let warning = stderr(&out);
    assert!(warning.contains(&format!("facts.jsonl:{line}: fact ")) && warning.contains("other text"), "{warning}");
    assert!(holding(&sandbox.store_dir(), "hash map").len() == 1, "the line is reported, not removed");
}
