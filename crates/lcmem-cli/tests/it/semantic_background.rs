//! `lcmem model install --background`: the embeddings are built by a process
//! of their own that outlives the command, and `lcmem model status` follows it.

use crate::semantic::{QUESTION, embed_state, hits, model, project, recall, status_words};

#[test]
fn a_model_installed_in_the_background_is_embedded_by_a_process_of_its_own() {
    let Some(dir) = model() else { return };
    let sandbox = project();
    assert_eq!(embed_state(&sandbox), serde_json::json!({"state": "off"}));
    let out = sandbox.assert_cmd().args(["model", "install", "--background", "--name", "minilm"]).arg(&dir).assert();
    let said = String::from_utf8_lossy(&out.success().get_output().stdout).to_string();
    assert!(said.contains("embedding this project's turns in the background (process "), "{said}");
    assert!(!said.contains("embedded "), "the command embedded the texts itself: {said}");
    // Followed from here until it ends: running (or already done), never stopped.
    let started = std::time::Instant::now();
    let state = loop {
        let state = embed_state(&sandbox);
        match state["state"].as_str() {
            Some("running") => {}
            Some("idle") => break state,
            _ => panic!("the background build did not end well: {state}\n{}", status_words(&sandbox)),
        }
        assert!(started.elapsed().as_secs() < 300, "the background build ran for 300 s: {state}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert_eq!(state, serde_json::json!({"state": "idle", "turns": 6, "current": true}));
    assert!(status_words(&sandbox).contains("embeddings: up to date (6 turn(s)"));
    let log = std::fs::read_to_string(sandbox.home().join("logs/embed.log")).unwrap();
    assert!(log.is_empty(), "the background build wrote to its log: {log}");
    let semantic = hits(&recall(&sandbox, QUESTION));
    assert!(semantic[0]["snippet"].as_str().unwrap().contains("walk by the river"), "{semantic:#?}");
    let doctor = sandbox.assert_cmd().arg("doctor").assert();
    let doctor = String::from_utf8_lossy(&doctor.get_output().stdout).to_string();
    assert!(
        doctor.contains("semantic recall: on: the model in") && doctor.contains("embeddings: up to date"),
        "{doctor}"
    );
}
